import ArgumentParser
import Foundation
import HapticRuntime

/// `hapticboard render FILE --svg OUT [--png OUT]`: a timeline picture of a pattern.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a pattern's timeline as SVG (and PNG): events, curves, compiled drive, simulated acceleration.",
        discussion: """
            Four lanes on one axis in seconds: each event (height = intensity, colour = sharpness \
            from blue dull to orange sharp; one <g class="event"> per event), parameter curves and \
            dynamic parameters, the drive the compiled program puts across the actuator (played \
            on a simulated chip configured like the board's actuator, never on hardware), and the \
            acceleration envelope of an LRA model (Q 10) under that drive; for a .haptic clip (or \
            a sound) the second lane shows its amplitude and frequency envelopes and emphasis \
            instead of the curves made from them. --png converts the SVG \
            with rsvg-convert or ImageMagick's convert when one is installed.

            Examples:
              hapticboard render Examples/notation/success-confirmation.hnl --svg success.svg
              hapticboard render Examples/ahap/parameter-curves.ahap --svg curves.svg --png curves.png
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "A content file.")
    var file: String

    @Option(name: .long, help: ArgumentHelp("Where to write the SVG.", valueName: "file"))
    var svg: String

    @Option(name: .long, help: ArgumentHelp("Also write a PNG here (needs rsvg-convert or convert).", valueName: "file"))
    var png: String?

    @Option(name: .long, help: "The actuator whose configuration the drive is simulated with (default: the board's first).")
    var actuator: String?

    struct Document: Encodable {
        var file: String
        var svg: String
        var png: String?
        var events: Int
        var duration: Double
    }

    func run() throws {
        options.bootstrapLogging()
        var reader = CommandContent()
        let content = try reader.load(file).content
        if !options.json { content.warnings.forEach { printError($0.description) } }
        let board = try CommandBoard.open(options.resolvedBoard, simulatingEveryDevice: true)
        let target = try board.actuators(named: actuator)[0]
        let playback = try SimulatedPlayback(content.pattern, on: target, of: board)
        let span = max(playback.duration, content.pattern.duration) + SimulatedPlayback.ringDown.secondsValue
        let picture = TimelinePicture(title: "\((file as NSString).lastPathComponent) on \(board.name)/\(target.name)", pattern: content.pattern, clip: content.clip, playback: playback, span: span)
        do {
            try picture.svg.write(toFile: svg, atomically: true, encoding: .utf8)
        } catch {
            throw CommandLineError.cannotWrite(path: svg, reason: error.localizedDescription)
        }
        if let png { try PNGConverter.convert(svg: svg, to: png) }
        let document = Document(file: file, svg: svg, png: png, events: content.pattern.events.count, duration: playback.duration)
        if options.json {
            try printJSON(document)
        } else {
            print("\(svg): \(document.events) event(s), \(ContentSummary.number(span)) s\(png.map { "; \($0)" } ?? "")")
        }
    }
}
