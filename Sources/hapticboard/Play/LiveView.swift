import ActuatorHAL
import Foundation
import HardwareMocks

/// One terminal line, redrawn at about 30 frames a second while `play` runs on the sim board: the
/// chip's drive now, the acceleration the LRA model gives for it, and a strip of recent
/// acceleration in block characters.
final class LiveView {
    /// 30 frames a second.
    static let frameInterval = Duration.nanoseconds(33_333_333)
    /// Acceleration is simulated over this much recent drive; about five envelope time constants,
    /// so the resonator's history before the window no longer matters.
    static let window = Duration.milliseconds(100)
    static let barWidth = 20
    static let historyLength = 40
    private static let levels: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    private let chip: DRV2605Model
    private let model: LRAModel
    private let start: MonotonicInstant
    private var history: [Double] = []
    private var lastFrame: MonotonicInstant?

    init(chip: DRV2605Model, model: LRAModel, start: MonotonicInstant) {
        self.chip = chip
        self.model = model
        self.start = start
    }

    /// Draws the frame for `now`, at most once per frame interval.
    func draw(at now: MonotonicInstant) {
        if let lastFrame, now - lastFrame < Self.frameInterval { return }
        lastFrame = now
        let drive = abs(chip.drive.level(at: now).amplitude)
        let trace = model.response(to: chip.drive, from: now - Self.window, to: now)
        let recent = Int(Self.frameInterval.secondsValue * trace.sampleRate)
        let felt = trace.samples.suffix(recent).reduce(0) { max($0, abs($1)) }
        history.append(felt)
        if history.count > Self.historyLength { history.removeFirst(history.count - Self.historyLength) }
        let strip = String(history.map { Self.block(for: $0) })
        let time = String(format: "%7.2f", (now - start).secondsValue)
        let driveText = String(format: "%4.2f", drive)
        let feltText = String(format: "%4.2f", felt)
        let line = "\r\(time) s  drive \(Self.bar(drive)) \(driveText)  felt \(Self.bar(felt)) \(feltText)  \(strip)\u{1B}[K"
        FileHandle.standardOutput.write(Data(line.utf8))
    }

    /// Ends the live line so the summary starts on its own.
    func finish() {
        FileHandle.standardOutput.write(Data("\n".utf8))
    }

    /// A horizontal bar of `value` (0…1) in eighths of a cell.
    static func bar(_ value: Double) -> String {
        let eighths = Int((min(1, max(0, value)) * Double(barWidth * 8)).rounded())
        let partial: [Character] = [" ", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        var text = String(repeating: "█", count: eighths / 8)
        if eighths % 8 > 0 { text.append(partial[eighths % 8]) }
        return "▕" + text.padding(toLength: barWidth, withPad: " ", startingAt: 0) + "▏"
    }

    /// A vertical block for `value` (0…1).
    static func block(for value: Double) -> Character {
        levels[Int((min(1, max(0, value)) * Double(levels.count - 1)).rounded())]
    }
}
