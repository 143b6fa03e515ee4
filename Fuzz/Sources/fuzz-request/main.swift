import ActuatorHAL
import Foundation
import FuzzSupport
import HapticRuntime
import HardwareMocks

/// The service's request bodies (`POST /play/ahap|notation|notes`, `/play/effect/:id`,
/// `/feedback/…` and their WebSocket twins all end in `HapticService.play`), played on the
/// simulated board on its virtual clock: whatever is asked, once every player is stopped the
/// actuator is not driving.
///
/// Input: a route byte, the route's fields (actuator byte, priority), then the body.
// libFuzzer calls the target from one thread only. The service lives for the whole run, so the
// simulated chips keep only their recent bus log and drive changes, as `serve` does: unbounded, each
// input's writes added to a history every later input searches and copies, and the run slowed down
// as it went.
nonisolated(unsafe) private let hardware: SimulatedBoardHardware = {
    let hardware = SimulatedBoardHardware()
    hardware.historyLimit = 256
    return hardware
}()
private let service: HapticService = {
    do {
        var limits = HapticService.Limits()
        limits.triggersPerSecond = 1e9
        limits.triggerBurst = 1e9
        let board = try Board.sim.open(on: hardware)
        let service = HapticService(board: board, scheduler: DeadlineScheduler(clock: hardware.virtualClock),
                                    library: ContentLibrary(folder: FileManager.default.temporaryDirectory), limits: limits)
        try service.start(timing: nil)
        return service
    } catch {
        fatalError("the simulated service does not start: \(error)")
    }
}()
private let client = ServiceClient(id: 1)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let route = input.byte()
    let actuators = input.pick([nil, ["main"], ["other"], [], ["main", "main"]])
    let priority = Int(input.int16())
    let content: ServiceContent
    switch route % 6 {
    case 0: content = .ahap(input.text())
    case 1: content = .notation(input.text())
    case 2: content = .notes(input.text())
    case 3: content = .effect(Int(Int32(bitPattern: input.uint32())))
    case 4:
        let feedback = input.pick([Note.HapticFeedback.selection] + Note.HapticFeedback.Impact.allCases.map { .impact($0) }
            + Note.HapticFeedback.Notification.allCases.map { .notification($0) })
        content = .feedback(feedback, intensity: input.double())
    default: content = .library(input.text())
    }
    let request = ServicePlayRequest(content: content, actuators: actuators, priority: priority)
    let clock = hardware.virtualClock
    do {
        _ = try service.play(request, from: client)
    } catch {
        Invariant.require(!"\(error)".isEmpty, "a refusal without a reason")
    }
    service.scheduler.run(until: clock.now + .milliseconds(5))
    service.stopAll()
    service.scheduler.run(until: clock.now + .milliseconds(5))
    Invariant.require(service.players.isEmpty, "players left after stopAll: \(service.players)")
    let level = hardware.chips["main"]?.chip.drive.level(at: clock.now).amplitude ?? 0
    Invariant.require(level == 0, "the actuator drives \(level) after every player stopped")
    return 0
}
