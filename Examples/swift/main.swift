// Plays a Haptic Notation pattern on the simulated board and prints what the chip drove.
// Run: swift run hapticboard-example
//
// On a Raspberry Pi, replace the simulated parts with the Linux ones:
//   let bus = try LinuxI2CBus(path: "/dev/i2c-1", speedHz: 400_000)
//   let enable = try LinuxGPIOOutput(GPIOLineSpecifier(parsing: "GPIO17"), initialLevel: .low)
//   let clock = SystemMonotonicClock()
// and run the scheduler's thread (`scheduler.startThread()`) instead of `run(until:)`.
import ActuatorHAL
import ActuatorHALLinux
import HapticRuntime
import HardwareMocks

let board = SimulatedBoard()
let ratings = DRV2605Ratings(kind: .lra, loop: .closed, ratedVoltage: 2.0, overdriveVoltage: 2.8, resonantFrequency: 175)
let actuator = DRV2605Actuator(
    name: "main",
    driver: DRV2605(bus: board.bus, enableLine: board.enableLine, clock: board.clock),
    configuration: DRV2605Configuration(ratings: ratings)
)
let scheduler = DeadlineScheduler(clock: board.clock)
let engine = HapticEngine(actuators: ["main": actuator], clock: board.clock, scheduler: scheduler)

do {
    let content = try HapticNotation.parse("loud sharp\n. 0.3s\ncontinuous 0.4s:\n  adsr: 0.1, 0.3, 0.8, 1.0\n", file: "inline")
    try engine.start()
    let player = try engine.makePlayer(with: content.pattern)
    try player.start(atTime: 0)
    // Virtual time: run every command due in the next 3 s; the 2 s idle timer then puts the chip
    // back in standby.
    scheduler.run(until: board.clock.now + .seconds(3))
    for change in board.chip.drive.changes.prefix(12) {
        print("t=\(change.time) amplitude=\(change.amplitude)")
    }
    print("power state after playing: \(actuator.powerState)")
} catch {
    print("error: \(error)")
}
