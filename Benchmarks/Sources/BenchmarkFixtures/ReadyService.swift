import ActuatorHAL
import ActuatorHALLinux
import Foundation
import HapticRuntime
import HardwareMocks

/// A `HapticService` on the sim board with its chip behind a zero-cost bus, on CLOCK_MONOTONIC
/// with its timing thread running and the chip already woken: `triggerOnce()` then measures what a
/// trigger costs below the HTTP layer (rate limit, content, arbitration, players, start) up to
/// the bus, as `serve` runs it for `POST /feedback/impact/rigid`.
public final class ReadyService {
    static let request = ServicePlayRequest(content: .feedback(.impact(.rigid), intensity: 1))
    static let patience = Duration.seconds(2)

    public let clock = SystemMonotonicClock()
    let service: HapticService
    let bus: ZeroCostBus
    let client = ServiceClient(id: 1)

    public init() throws {
        let hardware = ZeroCostBoardHardware(wall: clock)
        let board = try Board.sim.open(on: hardware)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hb-profile-\(getpid())")
        service = HapticService(board: board, scheduler: DeadlineScheduler(clock: clock, name: "profile-service"), library: ContentLibrary(folder: folder), limits: .unthrottled)
        // Its own timing thread, unprivileged (benchmarks run without real-time permission).
        try service.start(timing: OrdinaryTimingThread())
        guard let bus = hardware.zeroCostBus else { throw ReadyServiceError.noChip }
        self.bus = bus
        // The first trigger wakes and prepares the chip; it is not measured.
        _ = try triggerOnce()
    }

    deinit {
        service.shutDown()
    }

    /// Triggers once, waits for its first register write and for the player's end; returns the
    /// time from the call to that write (nil when none came).
    @discardableResult
    public func triggerOnce() throws -> Duration? {
        let ended = DispatchSemaphore(value: 0)
        bus.arm()
        let requested = clock.now
        _ = try service.play(Self.request, from: client) { _ in ended.signal() }
        let wrote = bus.waitForWrite(patience: Self.patience)
        _ = ended.wait(timeout: .now() + 2)
        return wrote.map { $0 - requested }
    }
}

enum ReadyServiceError: Error {
    case noChip
}
