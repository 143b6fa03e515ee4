// A kiosk button with the feedback a UI developer knows from UIKit: a press clicks (a rigid
// impact), a release ticks (selection), a press held half a second or more confirms (success).
// Usage: kiosk-button [BOARD [LINE]]
//   On the simulated board (the default) three presses of a simulated button stand in for the
//   line; on a real board LINE is the button's GPIO (default GPIO27, pressed = low).
import ActuatorHAL
import ActuatorHALLinux
import BoardFiles
import Foundation
import HapticRuntime
import HardwareMocks

let arguments = Array(CommandLine.arguments.dropFirst())
let longPress = Duration.milliseconds(500)

/// A simulated button pressed at each (start, held) in seconds from now.
func simulatedButton(on clock: VirtualClock, presses: [(Double, Double)]) -> SimulatedInputLine {
    let line = SimulatedInputLine(name: "button", initial: .high, clock: clock)
    let now = clock.now
    for (start, held) in presses {
        line.schedule(.falling, at: now + .milliseconds(Int64(start * 1000)))
        line.schedule(.rising, at: now + .milliseconds(Int64((start + held) * 1000)))
    }
    return line
}

do {
    let board = try Board.named(arguments.first ?? Board.simName)
    let simulation = board.isSimulated ? SimulatedBoardHardware() : nil
    let opened = try board.open(on: simulation ?? LinuxBoardHardware())
    defer { opened.close() }
    let engine = opened.makeEngine()
    let button: any DigitalInput = try simulation.map { simulatedButton(on: $0.virtualClock, presses: [(0.1, 0.08), (0.5, 0.7), (1.6, 0.05)]) }
        ?? LinuxGPIOInput(GPIOLineSpecifier(parsing: arguments.count > 1 ? arguments[1] : "GPIO27"))
    let click = ImpactFeedbackGenerator(style: .rigid, engine: engine)
    let tick = SelectionFeedbackGenerator(engine: engine)
    let confirm = NotificationFeedbackGenerator(engine: engine)
    try engine.start()
    // On hardware the engine's timing thread plays the feedback; on the simulated board this
    // thread runs it between edges, on virtual time.
    if simulation == nil { engine.scheduler.startThread(setup: RealtimeThread()) }
    click.prepare()

    /// The next edge: on hardware whenever it comes; simulated, once the engine has played
    /// everything due before it (nil when no press is left).
    func nextEdge() throws -> EdgeEvent? {
        guard let line = button as? SimulatedInputLine else { return try button.waitForEdge(timeout: .seconds(3_600)) }
        while line.pendingEdges == 0 {
            guard line.edges.last.map({ $0.timestamp > engine.clock.now }) == true else { return nil }
            engine.scheduler.run(until: engine.clock.now + .milliseconds(5))
        }
        return try line.waitForEdge(timeout: .zero)
    }

    var pressedAt: MonotonicInstant?
    var presses = 0
    while let edge = try nextEdge() {
        switch (edge.edge, pressedAt) {
        case (.falling, _):
            pressedAt = edge.timestamp
            click.impactOccurred()
        case (.rising, let pressed?):
            presses += 1
            let held = edge.timestamp - pressed
            if held >= longPress { confirm.notificationOccurred(.success) } else { tick.selectionChanged() }
            print("press \(presses): held \(Int((held.secondsValue * 1000).rounded())) ms → \(held >= longPress ? "success" : "tick")")
            pressedAt = nil
        default:
            break
        }
    }
    // Let the last feedback play out, then stop: the actuator ends stopped and in standby.
    if simulation != nil { engine.scheduler.run(until: engine.clock.now + .milliseconds(300)) }
    engine.stop()
    engine.scheduler.stopThread()
    print("\(presses) presses; the engine ran \(engine.scheduler.metrics.dispatched) actions")
} catch {
    print("kiosk-button: \(error)")
    exit(1)
}
