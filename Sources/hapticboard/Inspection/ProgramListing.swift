import HapticRuntime

/// A compiled `ActuatorProgram` as `inspect --program` shows it.
struct ProgramListing: Encodable {
    struct Command: Encodable {
        var time: Double
        var command: String
    }

    /// The actuator the program was compiled for.
    var actuator: String
    var duration: Double
    var updateRate: Double
    var commands: [Command]
    var warnings: [String]

    init(actuator: String, program: ActuatorProgram) {
        self.actuator = actuator
        duration = program.duration
        updateRate = program.updateRate
        commands = program.commands.map { Command(time: $0.time, command: $0.command.description) }
        warnings = program.warnings.map(\.description)
    }

    var text: String {
        let header = "program for \(actuator): \(commands.count) commands, \(ContentSummary.number(duration)) s, updates at \(ContentSummary.number(updateRate)) Hz"
        let listing = commands.map { "  \(ContentSummary.number($0.time)) s: \($0.command)" }
        return ([header] + listing + warnings).joined(separator: "\n")
    }
}
