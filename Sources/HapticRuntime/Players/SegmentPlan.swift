import ActuatorHAL

/// A segment's commands on every channel, timed from the segment's start and in issue order: what
/// a player turns into its plan by adding the start instant.
///
/// It depends only on the compiled programs, the segment's offset, rate and loop, and the
/// actuators' fixed costs (mode switch budget, bus time per command, PCM latency), never on the
/// start instant or on what the actuators are doing. So a player makes it once per setting and
/// keeps it: restarting a player (an application's click, a force-feedback effect played again)
/// plans nothing, and the plan for a start from the beginning is made with the player, leaving
/// `start()` only the work of scheduling.
struct SegmentPlan {
    /// What the plan was made for; a player's kept plan serves a segment with the same setting.
    struct Setting: Equatable {
        /// Pattern time the segment starts from.
        var offset: Double
        var rate: Double
        /// Where a looping segment ends; nil when it plays to the end (and stops).
        var loopLength: Double?
    }

    /// One command: `time` is pattern time (see `SlicedCommand`), the offsets are nanoseconds from
    /// the segment's start, truncated as `MonotonicInstant + Duration` truncates, so that adding
    /// the start gives the same instants as timing each command from the start would.
    struct Entry {
        var channel: Int
        var command: ActuatorCommand
        var time: Double
        var deadlineOffset: Int64
        var issueOffset: Int64

        /// The command of a segment that started at `start`.
        func planned(from start: MonotonicInstant) -> PlannedCommand {
            PlannedCommand(
                channel: channel, command: command, time: time,
                deadline: MonotonicInstant(nanoseconds: start.nanoseconds + deadlineOffset),
                issueAt: MonotonicInstant(nanoseconds: start.nanoseconds + issueOffset)
            )
        }
    }

    let setting: Setting
    /// In issue order; commands issued together keep channel and program order.
    let entries: [Entry]
    /// Per channel, the deadline offset of its first command; nil when it has nothing to play in
    /// the segment (a pattern of sounds only) or no program at all.
    let firstDeadlineOffsets: [Int64?]

    /// Slices each channel's program for `setting` and times its commands.
    init(setting: Setting, programs: [ActuatorProgram?], channels: [ActuatorChannel]) {
        self.setting = setting
        var entries: [Entry] = []
        // Each program's commands, and the state a slice carries over (mode, frequency, amplitude).
        entries.reserveCapacity(programs.reduce(0) { $0 + ($1?.commands.count ?? 0) + 3 })
        var firstDeadlineOffsets: [Int64?] = []
        for (index, channel) in channels.enumerated() {
            guard let program = programs[index] else {
                firstDeadlineOffsets.append(nil)
                continue
            }
            let sliced = ProgramSlice.commands(
                of: program, from: setting.offset, to: setting.loopLength,
                modeSwitchCost: channel.actuator.budget(for: .prepare).secondsValue, includeStop: setting.loopLength == nil
            )
            let deadlines = Self.deadlineOffsets(of: sliced, on: channel, setting: setting)
            firstDeadlineOffsets.append(deadlines.first)
            for (command, deadline) in zip(sliced, deadlines) {
                let issue = deadline - channel.issueLead(of: command.command)
                entries.append(Entry(channel: index, command: command.command, time: command.time, deadlineOffset: deadline, issueOffset: issue))
            }
        }
        self.entries = entries.sortedKeepingOrder { $0.issueOffset }
        self.firstDeadlineOffsets = firstDeadlineOffsets
    }

    /// When each command must have taken effect, from the segment's start. A mode switch must be
    /// done before the bus is needed for the first command of its mode, which is issued early by
    /// its own cost: so a `.prepare` is due at the next command's deadline minus that command's
    /// expected cost.
    private static func deadlineOffsets(of sliced: [SlicedCommand], on channel: ActuatorChannel, setting: Setting) -> [Int64] {
        var deadlines = sliced.map { Duration.nanoseconds(inSeconds: ($0.time - setting.offset) / setting.rate) }
        // The command after each `.prepare`; its cost is looked up only there, not for every
        // command of a stream.
        var following: Int?
        for index in sliced.indices.reversed() {
            if case .prepare = sliced[index].command {
                if let following {
                    let cost = channel.cost(of: sliced[following].command).expected.nanoseconds
                    deadlines[index] = min(deadlines[index], deadlines[following] - cost)
                }
            } else {
                following = index
            }
        }
        return deadlines
    }
}
