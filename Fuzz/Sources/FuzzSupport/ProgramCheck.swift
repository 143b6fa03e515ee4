import ActuatorHAL
import HapticRuntime
import HardwareMocks

/// What the compiler must make of any pattern a reader accepted, for the `sim` board's actuator
/// (a 175 Hz LRA on a DRV2605L in closed loop) and an ERM with a signed amplitude: times finite
/// and in order, drive within full scale, and the program ending with the actuator stopped.
public enum ProgramCheck {
    static let actuators: [ActuatorCapabilities] = [
        DRV2605Ratings(kind: .lra, loop: .closed, ratedVoltage: 2.0, overdriveVoltage: 2.8, resonantFrequency: 175),
        DRV2605Ratings(kind: .lra, loop: .open, ratedVoltage: 1.8, overdriveVoltage: 2.5, resonantFrequency: 170),
        DRV2605Ratings(kind: .erm, loop: .open, ratedVoltage: 3.0, overdriveVoltage: 3.6),
    ].map { ratings in
        let board = SimulatedBoard()
        let driver = DRV2605(bus: board.bus, enableLine: board.enableLine, clock: board.clock)
        return DRV2605Actuator(name: "main", driver: driver, configuration: DRV2605Configuration(ratings: ratings)).capabilities
    }

    /// The longest program compiled here, in seconds. The product allows 600 s; rendering an
    /// input that long at 1 kHz for three actuators comes close to the 10 s fuzz timeout in the
    /// sanitized debug build the test command runs (a 220 s clip once went past it). The cut at
    /// the limit is the same code at 60 s.
    static let longestProgram = 60.0

    public static func compiles(_ pattern: HapticPattern, _ what: String) {
        let options = CompilerOptions(maximumDuration: longestProgram)
        for capabilities in actuators {
            let program = PatternCompiler(capabilities: capabilities, options: options).compile(pattern)
            check(program, what)
            Invariant.require(program.commands.allSatisfy { $0.time <= longestProgram }, "\(what): a command after the \(longestProgram) s limit")
        }
    }

    public static func check(_ program: ActuatorProgram, _ what: String) {
        Invariant.require(program.duration.isFinite && program.duration >= 0, "\(what): duration \(program.duration)")
        var previous = -Double.infinity
        for command in program.commands {
            Invariant.require(command.time.isFinite, "\(what): a command at \(command.time)")
            Invariant.require(command.time >= previous, "\(what): commands out of order at \(command.time)")
            previous = command.time
            switch command.command {
            case .amplitude(let level):
                Invariant.require(level.isFinite && (-1...1).contains(level), "\(what): amplitude \(level) at \(command.time)")
            case .frequency(let hertz):
                Invariant.require(hertz.isFinite && hertz > 0, "\(what): frequency \(hertz) at \(command.time)")
            case .prepare, .trigger, .pcm, .stop:
                break
            }
        }
        if let last = program.commands.last {
            Invariant.require(last.command == .stop, "\(what): the program ends with \(last.command), not stop")
        }
    }
}
