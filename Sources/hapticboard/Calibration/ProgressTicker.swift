import Dispatch
import Foundation

/// A line on standard error that counts up the seconds while something blocking runs (the chip's
/// auto-calibration), so a person sees it is working. Only on a terminal: in logs and pipes the
/// step lines before and after say enough.
final class ProgressTicker: @unchecked Sendable {
    static let interval = DispatchTimeInterval.milliseconds(100)

    private let label: String
    private let started = Date()
    private let timer: (any DispatchSourceTimer)?

    /// Runs `body` with a ticker on screen, cleared before this returns.
    static func showing<Result>(_ label: String, _ body: () throws -> Result) rethrows -> Result {
        let ticker = ProgressTicker(label)
        defer { ticker.finish() }
        return try body()
    }

    /// Starts ticking `label… N.N s` when standard error is a terminal.
    init(_ label: String) {
        self.label = label
        guard isatty(STDERR_FILENO) == 1 else {
            timer = nil
            return
        }
        let source = DispatchSource.makeTimerSource(queue: .global())
        timer = source
        source.schedule(deadline: .now() + Self.interval, repeating: Self.interval)
        source.setEventHandler { [weak self] in self?.draw() }
        source.resume()
    }

    /// Stops ticking and clears the line.
    func finish() {
        guard let timer else { return }
        timer.cancel()
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    private func draw() {
        let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
        FileHandle.standardError.write(Data("\r\(label)… \(seconds) s\u{1B}[K".utf8))
    }
}
