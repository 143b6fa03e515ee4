import ActuatorHAL
import ActuatorHALLinux
import Foundation
import HapticRuntime
import HardwareMocks

/// `bench --inputs`: a press on a simulated line until the first register write of its bound
/// effect reaches a zero-cost bus. The line is a `QueuedInputLine` whose reader thread blocks as on
/// a GPIO line's event descriptor; the edge carries the instant it was injected as its "kernel"
/// timestamp. Reader thread, decoder, bindings, service, engine and scheduler are the real ones;
/// the chip is the sim board's DRV2605L, ready, behind a `ZeroCostBus`.
///
/// With real-time threads and a `cpu`, the timing thread, the reader and the thread standing in
/// for the line's interrupt keep to that CPU, as `--realtime-cpu` and the interrupt's affinity
/// put them on a board (docs/inputs.md); without one the kernel places them.
struct InputLatency {
    /// How long each press is left to end before the next.
    static let settle = Duration.milliseconds(30)
    static let patience = Duration.seconds(2)

    let clock: SystemMonotonicClock
    let realtime: Bool
    /// The CPU the real-time threads and the edge keep to; nil for any.
    let cpu: Int?
    let samples: Int

    func run() throws -> LatenessHistogram {
        let hardware = ZeroCostBoardHardware(wall: clock)
        let board = try Board.sim.open(on: hardware)
        var limits = HapticService.Limits()
        limits.triggersPerSecond = 1_000_000
        limits.triggerBurst = 1_000_000
        let service = HapticService(board: board, scheduler: DeadlineScheduler(clock: clock, name: "hapticboard-bench-inputs"),
                                    library: ContentLibrary(folder: FileManager.default.temporaryDirectory), limits: limits)
        try service.start(timing: realtime ? RealtimeThread(cpu: cpu) : OrdinaryTimingThread())
        defer { service.shutDown() }
        // Ready for the whole run, so each press measures software, not a wake.
        try service.keepAwake(for: .seconds(3_600))
        guard let bus = hardware.zeroCostBus else { throw CommandLineError.noActuators(board: "sim") }

        let line = QueuedInputLine(name: "bench button")
        let decoder = InputDecoder(buttons: [("button", .zero, .low)], encoders: [])
        let bindings = InputBindings(service: service, bindings: [InputBinding(input: "button", trigger: .press, content: .effect(1))])
        let reader = InputLineReader(line: line, role: .button("button"), clock: clock, decoder: decoder, bindings: bindings)
        try reader.start(threadSetup: realtime ? RealtimeThread.inputReader(cpu: cpu) : nil)
        defer { reader.stop() }

        // The presses come from a thread of their own standing in for the kernel, whose edge
        // interrupt no busy thread delays: above the reader and the timing thread where permitted.
        // From an ordinary thread, --load would time that thread's wait for a time slice between
        // taking the edge's timestamp and handing the edge over, which no kernel edge has.
        let presses = OneShotThread(name: "hapticboard-bench-edges") { [clock, samples, cpu] () throws -> LatenessHistogram in
            if realtime { _ = RealtimeThread(priority: RealtimeThread.defaultPriority + 5, lockingMemory: false, cpu: cpu).configureCurrentThread() }
            // The first press is not measured: it compiles and caches what later presses reuse.
            line.inject(.rising, at: clock.now)
            line.inject(.falling, at: clock.now)
            try clock.sleep(for: Self.settle)
            var histogram = LatenessHistogram()
            for _ in 0..<samples {
                bus.arm()
                let pressed = clock.now
                line.inject(.rising, at: pressed)
                if let wrote = bus.waitForWrite(patience: Self.patience) { histogram.record(wrote - pressed) }
                line.inject(.falling, at: clock.now)
                try clock.sleep(for: Self.settle)
            }
            return histogram
        }
        return try presses.result()
    }
}

/// Runs `body` once on a new thread; `result()` waits for it.
final class OneShotThread<Value>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var outcome: Result<Value, any Error>?

    init(name: String, _ body: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            outcome = Result { try body() }
            done.signal()
        }
        thread.name = name
        thread.start()
    }

    func result() throws -> Value {
        done.wait()
        return try outcome!.get()
    }
}
