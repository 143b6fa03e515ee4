import ActuatorHAL
import Foundation
import HardwareMocks

/// One terminal line, redrawn at about 30 frames a second while `play` runs on the sim board: the
/// chip's drive now, the acceleration the LRA model gives for it, and a strip of recent
/// acceleration in block characters.
///
/// `capture()` copies the chip's drive on the engine's timing thread, where the chip model is
/// touched; `draw()` does the physics and the terminal output on the command's thread.
final class LiveView: @unchecked Sendable {
    /// 30 frames a second.
    static let frameInterval = Duration.nanoseconds(33_333_333)
    /// Acceleration is simulated over this much recent drive; about five envelope time constants,
    /// so the resonator's history before the window no longer matters.
    static let window = Duration.milliseconds(100)
    static let barWidth = 20
    static let historyLength = 40
    private static let levels: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    private static let partialCells: [Character] = [" ", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    private let chip: DRV2605Model
    private let clock: any MonotonicClock
    private let model: LRAModel
    private let start: MonotonicInstant
    private let lock = NSLock()
    /// The last capture; guarded by `lock`.
    private var captured: (drive: DriveTimeline, time: MonotonicInstant)?
    private var history: [Double] = []

    init(chip: DRV2605Model, clock: any MonotonicClock, model: LRAModel) {
        self.chip = chip
        self.clock = clock
        self.model = model
        start = clock.now
    }

    /// Copies the chip's drive and the time (call where the chip model is not being changed).
    func capture() {
        let snapshot = (chip.drive, clock.now)
        lock.withLock { captured = snapshot }
    }

    /// Draws the last capture.
    func draw() {
        guard let (drive, now) = lock.withLock({ captured }) else { return }
        let level = abs(drive.level(at: now).amplitude)
        let trace = model.response(to: drive, from: now - Self.window, to: now)
        let recent = Int(Self.frameInterval.secondsValue * trace.sampleRate)
        let felt = trace.samples.suffix(recent).reduce(0) { max($0, abs($1)) }
        history.append(felt)
        if history.count > Self.historyLength { history.removeFirst(history.count - Self.historyLength) }
        let strip = String(history.map { Self.block(for: $0) })
        let time = String(format: "%7.2f", (now - start).secondsValue)
        let driveText = String(format: "%4.2f", level)
        let feltText = String(format: "%4.2f", felt)
        let line = "\r\(time) s  drive \(Self.bar(level)) \(driveText)  felt \(Self.bar(felt)) \(feltText)  \(strip)\u{1B}[K"
        FileHandle.standardOutput.write(Data(line.utf8))
    }

    /// Ends the live line so the summary starts on its own.
    func finish() {
        FileHandle.standardOutput.write(Data("\n".utf8))
    }

    /// A horizontal bar of `value` (0…1) in eighths of a cell.
    static func bar(_ value: Double) -> String {
        let eighths = Int((min(1, max(0, value)) * Double(barWidth * 8)).rounded())
        var text = String(repeating: "█", count: eighths / 8)
        if eighths % 8 > 0 { text.append(partialCells[eighths % 8]) }
        return "▕" + text.padding(toLength: barWidth, withPad: " ", startingAt: 0) + "▏"
    }

    /// A vertical block for `value` (0…1).
    static func block(for value: Double) -> Character {
        levels[Int((min(1, max(0, value)) * Double(levels.count - 1)).rounded())]
    }
}
