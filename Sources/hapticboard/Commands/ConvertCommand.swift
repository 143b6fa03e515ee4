import ArgumentParser
import Foundation
import HapticRuntime

/// `hapticboard convert IN --to ahap|haptic [-o OUT]`: content from one format to another.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert AHAP, .haptic, notation, notes or a sound to AHAP or .haptic.",
        discussion: """
            Reads any content hapticboard plays (- is standard input, recognised by content) and \
            writes it as AHAP or as a .haptic v1 clip, to standard output or to -o FILE.

            .haptic → AHAP follows Meta's mapping (intensity curve √amplitude, × 0.8 at \
            breakpoints with emphasis; sharpness curve √frequency; each emphasis a transient of \
            intensity √amplitude and sharpness = its frequency; continuous events of intensity 1, \
            sharpness 0, at most 30 s each), with control-point times relative to their curve's \
            Time as Apple defines them (the reference converters write absolute times, which play \
            late when a clip does not start at 0) and curves cut at Core Haptics' 16 points.

            AHAP, notation or notes → .haptic is the inverse: amplitude = intensity², frequency = \
            sharpness² of the continuous haptics as they play (envelopes, controls and curves \
            applied, overlapping events summed and clamped), transients as emphasis; a warning \
            lists what .haptic cannot carry (sound, envelope parameters, …).

            A sound (.wav, .flac, .ogg, .aiff, any rate and channel count) is analysed as the \
            design tools do (options below, or a --preset file); as AHAP it also gets the sound \
            itself as an AudioCustom event.

            A missing AudioCustom waveform file is a warning (an error with --strict).

            Examples:
              hapticboard convert Examples/haptic/impact-rumble.haptic --to ahap -o impact-rumble.ahap
              hapticboard convert Examples/notation/success-confirmation.hnl --to ahap
              hapticboard convert Examples/ahap/parameter-curves.ahap --to haptic
              hapticboard convert Examples/sound/door-knock.wav --to haptic --release-ms 60
            """
    )

    enum Target: String, ExpressibleByArgument, CaseIterable {
        case ahap, haptic
    }

    @Argument(help: "The content to convert (- for standard input).")
    var input: String

    @Option(name: .long, help: "The format to write: ahap or haptic.")
    var to: Target

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write (default: standard output).", valueName: "file"))
    var output: String?

    @Flag(name: .long, help: "Treat a missing or refused AudioCustom waveform file as an error.")
    var strict = false

    @Flag(name: .shortAndLong, help: "No warnings on standard error.")
    var quiet = false

    @OptionGroup(title: "Haptics from a sound") var analysis: SoundAnalysisOptions

    func run() throws {
        var reader = CommandContent(soundSettings: try analysis.settings())
        let (content, file) = try reader.load(input)
        if strict { try content.requirePlayableWaveforms() }
        var warnings = content.warnings.map(\.description)
        let text: String
        switch to {
        case .ahap:
            text = AHAP.write(content.pattern.fittedToCoreHapticsLimits())
            if content.format == .sound, let output, URL(fileURLWithPath: output).deletingLastPathComponent().standardizedFileURL != file.deletingLastPathComponent().standardizedFileURL {
                warnings.append("\(output): warning: its AudioCustom event plays \(file.lastPathComponent), which must lie beside it: copy the sound there")
            }
        case .haptic:
            if let clip = content.clip {
                text = clip.text
            } else {
                let conversion = HapticClip.conversion(of: content.pattern)
                text = conversion.clip.text
                if let warning = conversion.warning { warnings.append("\(input): warning: \(warning)") }
            }
        }
        if !quiet { warnings.forEach(printError) }
        guard let output else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        do {
            try text.write(toFile: output, atomically: true, encoding: .utf8)
        } catch {
            throw CommandLineError.cannotWrite(path: output, reason: (error as NSError).localizedDescription)
        }
    }
}
