import ActuatorHAL
import Logging

/// Piano's static API, spelled as its README spells it: `Piano.play([...])`, `Piano.cancel()`,
/// `Piano.wakeTapticEngine()`, `Piano.prepareTapticEngine()`, `Piano.putTapticEngineToSleep()`, and
/// `🎹` for `Piano`. The calls go to the piano given to `use(_:)` — the board's engine, chosen once
/// at start-up, since a Linux board has no system-wide Taptic Engine to assume.
///
/// As in Piano, the calls do not throw: a failure (no piano set, a bus error) is handed to
/// `errorHandler`, which logs it by default.
public enum Piano {
    private static let state = PianoState()

    /// Where the static calls play. Set it before the first call.
    public static func use(_ piano: HapticPiano?) {
        state.piano = piano
    }

    /// The piano set by `use(_:)`.
    public static var current: HapticPiano? { state.piano }

    /// Called with every failure of a static call; logs it by default.
    public static var errorHandler: @Sendable (any Error) -> Void {
        get { state.errorHandler }
        set { state.errorHandler = newValue }
    }

    /// Plays `notes`; `completion` runs when the last has really ended.
    public static func play(_ notes: [Note], completion: (@Sendable () -> Void)? = nil) {
        run { try $0.play(notes, completion: completion) }
    }

    /// Stops the notes playing and drops the rest.
    public static func cancel() {
        run { try $0.cancel() }
    }

    /// Powers the actuators up ahead of a gesture's feedback.
    public static func wakeTapticEngine() {
        run { try $0.wake() }
    }

    /// Readies the actuators so the next feedback starts without delay.
    public static func prepareTapticEngine() {
        run { try $0.prepare() }
    }

    /// Turns the actuators off once no feedback is expected.
    public static func putTapticEngineToSleep() {
        run { try $0.sleep() }
    }

    private static func run(_ call: (HapticPiano) throws -> Void) {
        guard let piano = state.piano else {
            state.errorHandler(PianoError.noPiano)
            return
        }
        do {
            try call(piano)
        } catch {
            state.errorHandler(error)
        }
    }
}

/// Piano's emoji name: `🎹.play([...])`.
public typealias 🎹 = Piano

/// Why a static `Piano` call did nothing.
public enum PianoError: Error, CustomStringConvertible {
    /// No piano was set with `Piano.use(_:)`.
    case noPiano

    public var description: String {
        switch self {
        case .noPiano: "Piano has no engine to play on: call Piano.use(HapticPiano(engine: …)) first"
        }
    }
}

/// The static API's piano and error handler, behind a lock: UI code and the engine's handler
/// thread may both call.
private final class PianoState: @unchecked Sendable {
    private let lock = Lock()
    private var storedPiano: HapticPiano?
    private var storedHandler: @Sendable (any Error) -> Void = { error in
        Logger(label: "hapticboard.piano").error("\(error)")
    }

    var piano: HapticPiano? {
        get { lock.withLock { storedPiano } }
        set { lock.withLock { storedPiano = newValue } }
    }

    var errorHandler: @Sendable (any Error) -> Void {
        get { lock.withLock { storedHandler } }
        set { lock.withLock { storedHandler = newValue } }
    }
}
