import ActuatorHAL

/// Plays one pattern on one actuator or on all of an engine's actuators, with Core Haptics'
/// player semantics. Made by `HapticEngine.makePlayer(with:on:)`.
///
/// The pattern is compiled once per actuator when the player is made (and again after
/// `sendParameters` / `scheduleParameterCurve`), and planned with it: the commands of a start from
/// the beginning, timed from the start and in issue order (`SegmentPlan`, kept per offset, rate and
/// loop). Starting adds the start instant and hands the scheduler the part issued within `planHorizon`,
/// topping it up as commands run: amplitude as a stream, ROM triggers as transients, mode switches
/// and the end as control commands. So a long pattern starts as fast as a click, and a playing
/// player allocates nothing per command. Several players on one actuator mix (`AmplitudeMixer`).
///
/// Times are engine seconds (`HapticEngine.currentTime`). For `start` and `resume`, 0 means as
/// soon as the actuators can play (after waking and preparing them); for `stop`, `pause`,
/// `sendParameters` and `scheduleParameterCurve`, 0 means now.
public class HapticPatternPlayer: @unchecked Sendable {
    let engine: HapticEngine
    let id: Int
    let channels: [ActuatorChannel]
    private let pattern: HapticPattern
    // `@exclusivity(unchecked)` on what a start and each command read and change, as on
    // `DeadlineScheduler.pending`: the engine's lock orders the threads, and these accesses call
    // only value-type code, so none can begin inside another.
    @exclusivity(unchecked) private var sent = SentParameters()
    @exclusivity(unchecked) private var compiled: [String: ActuatorProgram] = [:]
    /// `currentCompileGeneration` when `compiled` was made.
    private var compiledGeneration = 0

    private struct Segment {
        var start: MonotonicInstant
        var offset: Double
        var rate: Double
        /// Started "as soon as possible" (`start(atTime: 0)`): its start instant is the engine's
        /// guess at the earliest, not a time anyone asked for, so a transient at its start runs
        /// however late it comes (a button press or a trigger always clicks); later transients
        /// are still dropped when stale.
        var asSoonAsPossible = false
    }

    private struct Pending {
        var token: ScheduledToken
        /// Pattern time the command takes effect; −∞ for the wake ahead of content.
        var time: Double
        /// The command, when it came from the plan and runs through `commandTarget`.
        var planned: PlannedCommand? = nil
    }

    /// How far ahead of now planned commands are handed to the scheduler: far more than any
    /// command's lead, little enough that a refill hands over a few dozen commands at most.
    static let planHorizon = Duration.milliseconds(50)
    /// How long before the first command not yet handed over the plan is refilled: half the horizon.
    private static let refillLead = planHorizon / 2
    /// Entries of `pending` that are not planned commands: a wake, the end of a pattern of sounds.
    private static let controlEntries = 4
    /// The entry number `commandTarget` runs as a refill of the plan, not as a command.
    private static let refillEntry = 0

    @exclusivity(unchecked) private var segment: Segment?
    private var pausedOffset: Double?
    private var startOffset = 0.0
    @exclusivity(unchecked) private var pending: [Int: Pending] = [:]
    private var nextEntry = 0
    @exclusivity(unchecked) private var loopToken: ScheduledToken?
    /// Stops, pauses and resumes scheduled for a later time, by entry number; each is removed when
    /// it runs, so a player kept for months holds only those still to come.
    @exclusivity(unchecked) private var controlTokens: [Int: ScheduledToken] = [:]
    @exclusivity(unchecked) private var endedChannels: Set<String> = []
    private var muted = false
    /// The current segment's commands, in issue order; those before `planCursor` are scheduled.
    @exclusivity(unchecked) private var plan: [PlannedCommand] = []
    private var planCursor = 0
    /// The scheduled refill of the plan, while part of it is not scheduled yet.
    @exclusivity(unchecked) private var refillToken: ScheduledToken?
    private let commandTarget = PlayerCommandTarget()
    /// Stream classes of this player's commands, by channel; made when a channel's first amplitude
    /// or frequency command is scheduled (a click has none, and building their names was a fifth
    /// of making its player), then kept, so a stream's samples allocate nothing.
    @exclusivity(unchecked) private var streams: [PlayerStreams?]
    /// The refill's cost key, made when a plan first outgrows the horizon, then kept.
    private var refillKey: CostKey?
    /// The last segment plan made (`segmentPlan(from:rate:)`); dropped when the programs are recompiled.
    private var keptPlan: SegmentPlan?

    var loopEnabledValue = false
    var loopEndValue = 0.0
    /// Pattern time each pass after the first starts from (an endless force-feedback effect loops
    /// its steady part, not its delay and attack); 0, the start, for Core Haptics' loops.
    var loopStartValue = 0.0
    var rateValue = 1.0
    var completion: (@Sendable ((any Error)?) -> Void)?

    init(engine: HapticEngine, id: Int, pattern: HapticPattern, channels: [ActuatorChannel]) {
        self.engine = engine
        self.id = id
        self.pattern = pattern
        self.channels = channels
        streams = Array(repeating: nil, count: channels.count)
        commandTarget.player = self
        let ahead = engine.compileAhead(sent.applied(to: pattern), for: channels)
        engine.locked {
            recompile(ahead: ahead)
            // The plan of a start from the beginning, and room for its pending commands, made now
            // so that `start()` only schedules.
            let planned = segmentPlan(from: 0, rate: rateValue)
            pending.reserveCapacity(min(planned.entries.count + Self.controlEntries, PendingCommands.reservedCommands))
        }
    }

    // MARK: Public API

    /// The program each actuator plays, by actuator name.
    public var programs: [String: ActuatorProgram] { engine.locked { compiled } }

    /// Seconds from the pattern start to its real end: the latest end of its compiled programs
    /// (ROM effects' playing time and braking included), not the last event's time.
    public var duration: Double { engine.locked { programDuration } }

    /// Whether the player is scheduled or sounding.
    public var isPlaying: Bool { engine.locked { segment != nil } }

    /// Silences this player only: its amplitude counts as zero in the mix and its triggers are skipped.
    public var isMuted: Bool {
        get { engine.locked { muted } }
        set {
            engine.locked {
                muted = newValue
                guard newValue else { return }
                for channel in channels where channel.activePlayers.contains(id) {
                    channel.mixer.set(0, for: id)
                    engine.writeMixReportingFaults(on: channel)
                }
            }
        }
    }

    /// Starts playback at `time` (0 = as soon as possible) from the beginning, or from the offset
    /// set by `seek` before starting. Starting a playing player restarts it.
    public func start(atTime time: Double) throws {
        try engine.locked {
            try engine.requireRunning()
            let instant = try engine.instant(forTime: time, on: channels)
            try start(at: instant, asSoonAsPossible: time == 0)
        }
    }

    /// Starts at an engine instant (Piano schedules notes back to back this way); with
    /// `asSoonAsPossible`, the instant is only the earliest the engine expects to make.
    func start(at instant: MonotonicInstant, asSoonAsPossible: Bool = false) throws {
        // A restart drops the previous pass's level from the mix before the new one begins.
        if segment != nil { try releaseAll() }
        let offset = startOffset
        startOffset = 0
        pausedOffset = nil
        try begin(from: offset, at: instant, asSoonAsPossible: asSoonAsPossible)
    }

    /// Stops playback at `time` (0 = now): output stops, pending commands are dropped, actuators
    /// no other player uses go to standby, and the completion handler is called.
    public func stop(atTime time: Double) throws {
        try atControlTime(time) { player in
            player.engine.playerStoppedAudio(player: player.id)
            try player.stopNow(reporting: nil)
        }
    }

    /// Stops at once and drops everything pending, including scheduled stops, pauses and resumes;
    /// actuators no other player uses go to standby; the completion handler is not called.
    public func cancel() throws {
        try cancel(standby: true)
    }

    /// `cancel()`; with `standby` false the actuators no other player uses are stopped but left
    /// ready, going to standby by their idle timeouts as after an end: for a player another
    /// replaces at once (a retriggered binding, a preemption), whose start would otherwise wake
    /// the chip again — two bus writes more before its first level.
    func cancel(standby: Bool) throws {
        try engine.locked {
            cancelControls()
            engine.playerStoppedAudio(player: id)
            try releaseAll(standby: standby)
            cancelScheduled()
            segment = nil
            pausedOffset = nil
            engine.playerFinished(self)
        }
    }

    /// Applies dynamic parameters from `time` (0 = now); each parameter's own `time` is relative to
    /// that. Commands from then on are recompiled and replaced; earlier ones are untouched. A value
    /// is a live control, as in Core Haptics: once playback has reached it, it is also what a seek
    /// back or a restart plays with, and the values it replaced are forgotten.
    public func sendParameters(_ parameters: [DynamicParameter], atTime time: Double) throws {
        try engine.locked {
            let base = try patternTime(forControlTime: time)
            for parameter in parameters {
                sent.add(DynamicParameter(parameter.id, value: parameter.value, time: base + parameter.time))
            }
            try forgetParametersHeardAlready()
            try replan(from: base + (parameters.map(\.time).min() ?? 0))
        }
    }

    /// Applies a parameter curve from `time` (0 = now); the curve's own `time` is relative to that.
    public func scheduleParameterCurve(_ curve: ParameterCurve, atTime time: Double) throws {
        try engine.locked {
            let base = try patternTime(forControlTime: time)
            sent.add(ParameterCurve(curve.id, time: base + curve.time, controlPoints: curve.controlPoints))
            try forgetParametersHeardAlready()
            try replan(from: base + curve.time)
        }
    }

    /// Drops the sent parameters that playback has left behind (`SentParameters.forget(before:)`),
    /// keeping those in force now — the one just sent, when it applies now — and those to come.
    private func forgetParametersHeardAlready() throws {
        sent.forget(before: try patternTime(forControlTime: 0))
    }

    // MARK: Advanced playback (exposed by HapticAdvancedPatternPlayer)

    /// Pauses at `time` (0 = now), keeping the position for `resume`.
    func pause(atTime time: Double) throws {
        try atControlTime(time) { player in
            guard let position = player.position(at: player.engine.clock.now) else { return }
            player.engine.playerStoppedAudio(player: player.id)
            try player.releaseAll()
            player.cancelScheduled()
            player.segment = nil
            player.pausedOffset = position
        }
    }

    /// Resumes a paused player at `time` (0 = as soon as possible) from where it paused.
    func resume(atTime time: Double) throws {
        try engine.locked {
            try engine.requireRunning()
            guard pausedOffset != nil else { return }
            let instant = try engine.instant(forTime: time, on: channels)
            let resumeAt: (HapticPatternPlayer) throws -> Void = { player in
                guard let offset = player.pausedOffset else { return }
                player.pausedOffset = nil
                try player.begin(from: offset, at: instant)
            }
            if time == 0 {
                try resumeAt(self)
            } else {
                scheduleControl(at: instant, "resume", resumeAt)
            }
        }
    }

    /// Moves the playback position to `offset` seconds of the pattern: at once when playing, at
    /// the next resume when paused, at the next start otherwise. An offset at or past the end
    /// finishes playback unless looping.
    func seek(toOffset offset: Double) throws {
        try engine.locked {
            guard offset.isFinite, offset >= 0 else { throw HapticEngineError.invalidTime(offset) }
            if segment != nil {
                try releaseAll()
                try begin(from: offset, at: engine.earliestStart(on: channels))
            } else if pausedOffset != nil {
                pausedOffset = offset
            } else {
                startOffset = offset
            }
        }
    }

    /// Applies a new rate from the current position when playing.
    func rateChanged() throws {
        guard let position = position(at: engine.clock.now) else { return }
        try begin(from: position, at: engine.clock.now)
    }

    // MARK: Scheduling

    private var programDuration: Double {
        // A loop, not `map(_:).max()`: every start reads it, and the mapped array was allocated each time.
        var longest = 0.0
        for program in compiled.values { longest = max(longest, program.duration) }
        return longest
    }

    /// Where a loop ends: `loopEnd`, or the real end of the pattern when 0.
    private var loopLength: Double {
        loopEndValue > 0 ? loopEndValue : programDuration
    }

    /// Compiles the pattern for every channel, taking what `HapticEngine.compileAhead` made
    /// outside the lock where it still holds.
    private func recompile(ahead: [String: CompiledAhead] = [:]) {
        keptPlan = nil
        for channel in channels {
            compiled[channel.name] = engine.compile(sent.applied(to: pattern), for: channel, ahead: ahead[channel.name])
        }
        compiledGeneration = currentCompileGeneration
    }

    /// The engine's compile settings and the channels' compilers as they are now, as one number
    /// that any change of them changes (each part only grows).
    private var currentCompileGeneration: Int {
        // Reading a channel's compiler replaces it first when its actuator has changed.
        channels.reduce(engine.compileSettingsGeneration) { sum, channel in
            _ = channel.compiler
            return sum + channel.compilerGeneration
        }
    }

    /// Whether the programs compiled when the player was made (or last recompiled) are what
    /// compiling its pattern now would give: the engine's settings and the actuators' compilers are
    /// the same. A player kept to be started again is dropped when they are not.
    var compiledProgramsAreCurrent: Bool {
        engine.locked { compiledGeneration == currentCompileGeneration }
    }

    /// Renders the pattern's sounds ahead of a start, outside the engine's lock, as making the
    /// player did: the engine keeps the renders of recent patterns only, so a player started long
    /// after it was made may find its sounds gone.
    func prerenderSounds() {
        engine.prerenderAudio(pattern)
    }

    /// Stops, pauses and resumes scheduled for later that have not run yet.
    var scheduledControlCount: Int {
        engine.locked { controlTokens.count }
    }

    /// Sent parameters and curves the player keeps (see `SentParameters.forget(before:)`).
    var sentSourceCount: Int {
        engine.locked { sent.parameters.count + sent.curves.count }
    }

    /// The commands of the player's programs, on all its actuators.
    var compiledCommandCount: Int {
        engine.locked { compiled.values.reduce(0) { $0 + $1.commands.count } }
    }

    /// Plays from pattern time `offset`, which takes effect at `instant`.
    private func begin(from offset: Double, at instant: MonotonicInstant, asSoonAsPossible: Bool = false) throws {
        cancelScheduled()
        endedChannels = []
        let length = loopEnabledValue ? loopLength : programDuration
        guard loopEnabledValue ? length > 0 : offset < length else {
            try stopNow(reporting: nil)
            return
        }
        let start = loopEnabledValue ? offset.truncatingRemainder(dividingBy: length) : offset
        segment = Segment(start: instant, offset: start, rate: rateValue, asSoonAsPossible: asSoonAsPossible)
        for channel in channels {
            engine.claim(channel, for: self)
        }
        try scheduleCommands(from: nil)
        for channel in channels where channel.activePlayers.contains(id) {
            engine.armStatusPoll(on: channel)
        }
        // An as-soon-as-possible start may have begun earlier than `instant` (`startAdvance`).
        engine.playerBeganAudio(sent.applied(to: pattern), from: start, at: segment?.start ?? instant, rate: rateValue, player: id)
        if loopEnabledValue {
            let boundary = deadline(forPatternTime: length)
            loopToken = engine.scheduleControl(at: boundary, key: controlKey("loop")) { [weak self] in
                guard let self else { return }
                if !self.sent.isEmpty {
                    self.sent.carryOver(loopLength: length)
                    self.recompile()
                }
                try self.begin(from: min(self.loopStartValue, length), at: boundary)
            }
        }
    }

    /// Plans the current segment's commands and schedules the first window of them; with `from`,
    /// replaces the part of the plan taking effect at or after that pattern time (the rest is kept).
    private func scheduleCommands(from replanTime: Double?) throws {
        guard let segment else { return }
        let relative = segmentPlan(from: segment.offset, rate: segment.rate)
        if let replanTime {
            // What is left of the plan before `replanTime`, then the new commands, in issue order.
            var planned = plan[planCursor...].filter { $0.time < replanTime }
            for entry in relative.entries where entry.time >= replanTime { planned.append(entry.planned(from: segment.start)) }
            plan = planned.sortedKeepingOrder { $0.issueAt.nanoseconds }
        } else {
            plan = relative.entries.map { $0.planned(from: segment.start) }
            for (index, channel) in channels.enumerated() {
                guard let first = relative.firstDeadlineOffsets[index], channel.actuator.powerState == .off else { continue }
                let wakeBy = segment.start + Duration(nanoseconds: first) - channel.actuator.budget(for: .prepare)
                let entry = nextEntryNumber()
                pending[entry] = Pending(token: engine.scheduleWake(of: channel, by: wakeBy), time: -.infinity)
            }
            if segment.asSoonAsPossible { advanceStart() }
        }
        // Room for what a window of the plan holds, reserved before the first command of it is
        // scheduled: a stream then allocates nothing per sample; a click needs a few entries.
        pending.reserveCapacity(min(plan.count + Self.controlEntries, PendingCommands.reservedCommands))
        planCursor = 0
        if let refillToken { engine.scheduler.cancel(refillToken) }
        refillToken = nil
        if replanTime == nil { runDueOpeningDirectly() }
        scheduleFromPlan()
        guard replanTime == nil, relative.setting.loopLength == nil else { return }
        for (index, channel) in channels.enumerated() where relative.firstDeadlineOffsets[index] == nil {
            // A channel without a program has nothing to end.
            guard let end = compiled[channel.name]?.duration else { continue }
            guard end > segment.offset else {
                try engine.release(self, from: channel)
                channelEnded(channel.name)
                continue
            }
            // A pattern of sounds only: nothing for the actuator, but the player lasts until its
            // sounds end (their end is the program's duration), as a player with haptics does.
            let entry = nextEntryNumber()
            let token = engine.scheduleControl(at: deadline(forPatternTime: end), key: controlKey("sounds-end")) { [weak self] in
                guard let self else { return }
                self.pending[entry] = nil
                try self.engine.release(self, from: channel)
                self.channelEnded(channel.name)
            }
            pending[entry] = Pending(token: token, time: end)
        }
    }

    /// The plan of a segment from `offset` at `rate`, relative to its start: the kept one when it
    /// was made for the same offset, rate and loop (and the programs have not been recompiled
    /// since), else a new one, kept.
    private func segmentPlan(from offset: Double, rate: Double) -> SegmentPlan {
        let setting = SegmentPlan.Setting(offset: offset, rate: rate, loopLength: loopEnabledValue ? loopLength : nil)
        if let keptPlan, keptPlan.setting == setting { return keptPlan }
        let made = SegmentPlan(setting: setting, programs: channels.map { compiled[$0.name] }, channels: channels)
        keptPlan = made
        return made
    }

    /// Moves an as-soon-as-possible segment, and its plan, earlier by `startAdvance`.
    private func advanceStart() {
        let advance = startAdvance(of: plan)
        guard advance > .zero, var advanced = segment else { return }
        // Read, then written whole: assigning through `segment?.start` went through the property's
        // modify coroutine, an access the optimiser cannot see the end of, which kept a run-time
        // exclusivity check on every other access to `segment` (about 25 sites).
        advanced.start = advanced.start - advance
        segment = advanced
        for index in plan.indices {
            plan[index].deadline = plan[index].deadline - advance
            plan[index].issueAt = plan[index].issueAt - advance
        }
    }

    /// Hands the scheduler the planned commands issued before now + `planHorizon` (at least the
    /// next instant's), and keeps a refill scheduled while the rest of the plan waits. Called when
    /// a segment starts, after each planned command runs and by the refill: once the plan's
    /// storage exists, none of it allocates.
    private func scheduleFromPlan() {
        let horizon = engine.clock.now + Self.planHorizon
        var lastIssued: MonotonicInstant?
        while planCursor < plan.count {
            let issueAt = plan[planCursor].issueAt
            guard issueAt < horizon || lastIssued == nil || issueAt == lastIssued else { break }
            var end = planCursor + 1
            while end < plan.count, plan[end].issueAt == issueAt { end += 1 }
            scheduleTogether(planCursor..<end)
            planCursor = end
            lastIssued = issueAt
        }
        guard planCursor < plan.count, refillToken == nil else { return }
        let refillAt = plan[planCursor].issueAt - Self.refillLead
        let key = refillKey ?? (channels.count == 1 ? channels[0].keys.playerPlan : CostKey("player-plan", actuators: channels.map(\.name)))
        refillKey = key
        refillToken = engine.enqueue(at: refillAt, class: .housekeeping, costKey: key, expectedCost: .zero, action: .target(commandTarget, Self.refillEntry))
    }

    /// Schedules the planned commands `range`, all issued at one instant; those due on several
    /// actuators that a synchronizer can start together become one action.
    private func scheduleTogether(_ range: Range<Int>) {
        guard range.count > 1, !engine.synchronizers.isEmpty else {
            for index in range { schedule(plan[index]) }
            return
        }
        let first = plan[range.lowerBound]
        let (groups, single) = engine.together(range.map { (channels[plan[$0].channel], plan[$0].command) })
        for group in groups {
            let entry = nextEntryNumber()
            let token = engine.schedule(group, at: first.deadline, for: self, entry: entry, mayDrop: !opens(first))
            pending[entry] = Pending(token: token, time: first.time)
        }
        for index in range where single.contains(where: { $0.channel === channels[plan[index].channel] && $0.command == plan[index].command }) {
            schedule(plan[index])
        }
    }

    /// Schedules one planned command, run by `commandTarget`.
    private func schedule(_ planned: PlannedCommand) {
        let entry = nextEntryNumber()
        let channel = channels[planned.channel]
        let token = engine.schedulePlanned(planned.command, on: channel, at: planned.issueAt, class: commandClass(of: planned), target: commandTarget, entry: entry)
        pending[entry] = Pending(token: token, time: planned.time, planned: planned)
    }

    /// The class a planned command is scheduled with: its channel's, except that a transient
    /// opening an as-soon-as-possible segment is never dropped.
    private func commandClass(of planned: PlannedCommand) -> CommandClass {
        let commandClass = channels[planned.channel].commandClass(of: planned.command, streams: streams(of: planned.channel))
        return commandClass == .transient && opens(planned) ? .control : commandClass
    }

    /// The direct path for a segment's opening (`DeadlineScheduler+Direct`): the commands at the
    /// head of the plan that are due now run here, on the caller, in plan order, before the rest
    /// is queued. Only where the queue would run them alike (`openingDependsOnThePlanAlone`); it
    /// stops at the first command not due yet, or that the queue treats in its own way
    /// (`directClass`).
    private func runDueOpeningDirectly() {
        guard planCursor == 0, !plan.isEmpty, openingDependsOnThePlanAlone, engine.beginDirectRun() else { return }
        defer { engine.endDirectRun() }
        while planCursor < plan.count, let commandClass = directClass(of: planCursor) {
            switch engine.runDirectly(plan[planCursor], class: commandClass, for: self) {
            case .ran:
                planCursor += 1
            case .failed:
                // Handled before anything queued runs; the rest of the plan is queued, then dropped.
                planCursor += 1
                return
            case .notDue:
                return
            }
        }
    }

    /// The class of plan entry `index` for the direct path; nil for what only the queue runs
    /// right: a transient it may drop when stale, a stream value that the next one, due too,
    /// replaces (`StaleStreamCommands`), sound samples (timed by the device) and the end.
    private func directClass(of index: Int) -> CommandClass? {
        let planned = plan[index]
        switch planned.command {
        case .pcm, .stop: return nil
        case .prepare, .trigger, .amplitude, .frequency: break
        }
        let planClass = commandClass(of: planned)
        switch planClass {
        case .transient:
            return nil
        case .stream:
            // A later entry on the same channel with the same kind of command is the same stream;
            // the plan is in issue order, so the due ones come first.
            let now = engine.clock.now
            var next = index + 1
            while next < plan.count, plan[next].issueAt <= now {
                if plan[next].channel == planned.channel, Self.setTheSameState(plan[next].command, planned.command) { return nil }
                next += 1
            }
            return planClass
        case .control, .housekeeping:
            return planClass
        }
    }

    /// The stream classes of channel `index`, made on first use.
    private func streams(of index: Int) -> PlayerStreams {
        if let made = streams[index] { return made }
        let made = PlayerStreams(actuator: channels[index].name, player: id)
        streams[index] = made
        return made
    }

    /// Whether two commands set the same state of an actuator (both its amplitude or both its
    /// drive frequency): on one channel of one player, the same stream.
    private static func setTheSameState(_ first: ActuatorCommand, _ second: ActuatorCommand) -> Bool {
        switch (first, second) {
        case (.amplitude, .amplitude), (.frequency, .frequency): true
        default: false
        }
    }

    /// Whether `planned` is at the start of a segment started as soon as possible: a transient
    /// there must run however late (see `Segment.asSoonAsPossible`; streams resync anyway).
    private func opens(_ planned: PlannedCommand) -> Bool {
        guard let segment, segment.asSoonAsPossible else { return false }
        return planned.time <= segment.offset
    }

    /// Runs a planned command (or the plan's refill) when the scheduler reaches it.
    func runPlanned(_ entry: Int) throws {
        try engine.locked {
            if entry == Self.refillEntry {
                engine.planRefills += 1
                refillToken = nil
                scheduleFromPlan()
                return
            }
            guard let planned = pending.removeValue(forKey: entry)?.planned else { return }
            try engine.perform(planned.command, on: channels[planned.channel], for: self, dueAt: planned.deadline)
            scheduleFromPlan()
        }
    }

    /// Whether a segment's opening is this player's commands and the bus alone: every actuator
    /// ready (a wake or a leave from standby is budgeted from the start's guess), no sounds
    /// starting with it (the sound device's latency sets their start), no synchronizer that may
    /// start several actuators together (its lead is its own). Then the segment may begin early
    /// (`startAdvance`) and its due opening run on the caller (`runDueOpeningDirectly`).
    private var openingDependsOnThePlanAlone: Bool {
        channels.allSatisfy({ $0.actuator.powerState == .ready })
            && (engine.audioOutput == nil || engine.playsHapticsOnly)
            && (channels.count == 1 || engine.synchronizers.isEmpty)
    }

    /// How much earlier than planned an as-soon-as-possible segment can begin: its start instant
    /// is the engine's guess (`ActuatorChannel.startLead`, a whole sequencer trigger at the bus's
    /// rated speed), but the scheduler already issues each command its learned lead ahead of its
    /// deadline, so the segment may begin as early as its first command can be issued now — a
    /// press or a trigger then reaches the bus at once instead of after the guess. A mode switch
    /// keeps its own lead; a prepare for the mode the actuator is in costs nothing. Zero when an
    /// actuator must first wake or leave standby (their budgets are planned from the guess), when
    /// sounds start with the segment (the sound device's own latency sets their start), and for
    /// commands a synchronizer may start together (their lead is the synchronizer's).
    private func startAdvance(of planned: [PlannedCommand]) -> Duration {
        guard openingDependsOnThePlanAlone, let firstIssue = planned.lazy.map(\.issueAt).min() else { return .zero }
        let now = engine.clock.now
        var earliestDispatch: MonotonicInstant?
        // No lead is longer than the plan's horizon, so later commands cannot be dispatched first.
        for command in planned where command.issueAt < firstIssue + Self.planHorizon {
            let channel = channels[command.channel]
            // A prepare for the mode the actuator is in does nothing: its lead is not waited for.
            if case .prepare(let mode) = command.command, channel.actuator.isPrepared(for: mode) { continue }
            let (key, expected) = channel.cost(of: command.command)
            let dispatch = command.issueAt - engine.scheduler.lead(for: key, expectedCost: expected)
            earliestDispatch = min(earliestDispatch ?? dispatch, dispatch)
        }
        guard let earliestDispatch, earliestDispatch > now else { return .zero }
        return earliestDispatch - now
    }

    private func nextEntryNumber() -> Int {
        nextEntry += 1
        return nextEntry
    }

    /// Recompiles and replaces the pending commands that take effect at or after `time`.
    private func replan(from time: Double) throws {
        recompile()
        guard segment != nil else { return }
        for (entry, item) in pending where item.time >= time {
            engine.scheduler.cancel(item.token)
            pending[entry] = nil
        }
        try scheduleCommands(from: time)
        if let segment {
            engine.playerReplannedAudio(sent.applied(to: pattern), from: time, at: deadline(forPatternTime: time), rate: segment.rate, player: id)
        }
    }

    private func deadline(forPatternTime time: Double) -> MonotonicInstant {
        guard let segment else { return engine.clock.now }
        return segment.start + .seconds((time - segment.offset) / segment.rate)
    }

    /// The pattern time playing at `instant`, or nil when not playing.
    private func position(at instant: MonotonicInstant) -> Double? {
        guard let segment else { return nil }
        return segment.offset + max(0, (instant - segment.start).secondsValue) * segment.rate
    }

    /// The pattern time a control call at `time` (0 = now) refers to.
    private func patternTime(forControlTime time: Double) throws -> Double {
        guard time.isFinite, time >= 0 else { throw HapticEngineError.invalidTime(time) }
        let instant = time == 0 ? engine.clock.now : MonotonicInstant(nanoseconds: Int64((time * 1e9).rounded()))
        return position(at: instant) ?? (pausedOffset ?? startOffset)
    }

    /// Runs `body` now (time 0) or as a control command at `time`.
    private func atControlTime(_ time: Double, _ body: @escaping (HapticPatternPlayer) throws -> Void) throws {
        try engine.locked {
            guard time.isFinite, time >= 0 else { throw HapticEngineError.invalidTime(time) }
            if time == 0 {
                try body(self)
                return
            }
            scheduleControl(at: MonotonicInstant(nanoseconds: Int64((time * 1e9).rounded())), "control", body)
        }
    }

    /// Schedules `body` at `instant` as a control command, kept in `controlTokens` until it runs.
    private func scheduleControl(at instant: MonotonicInstant, _ action: String, _ body: @escaping (HapticPatternPlayer) throws -> Void) {
        let entry = nextEntryNumber()
        controlTokens[entry] = engine.scheduleControl(at: instant, key: controlKey(action)) { [weak self] in
            guard let self else { return }
            self.controlTokens[entry] = nil
            try body(self)
        }
    }

    private func cancelScheduled() {
        for item in pending.values { engine.scheduler.cancel(item.token) }
        // Kept: a restarted or looping player refills it without allocating.
        pending.removeAll(keepingCapacity: true)
        if let loopToken { engine.scheduler.cancel(loopToken) }
        loopToken = nil
        if let refillToken { engine.scheduler.cancel(refillToken) }
        refillToken = nil
        plan = []
        planCursor = 0
    }

    /// Takes this player off every actuator it uses; see `HapticEngine.release` for `standby`.
    private func releaseAll(standby: Bool = false) throws {
        for channel in channels where channel.activePlayers.contains(id) {
            try engine.release(self, from: channel, standby: standby)
        }
    }

    /// The cost key of a player control action: one per kind, on the player's actuators, so a
    /// failure is put down to them and a long-running engine keeps one learned lead per kind.
    private func controlKey(_ action: String) -> CostKey {
        CostKey("player-" + action, actuators: channels.map(\.name))
    }

    // MARK: Called by the engine

    /// Schedules an engine follow-up for this player at `instant` (a ROM sequence's end being
    /// polled: housekeeping), kept with its pending commands so stopping, cancelling or
    /// replanning drops it.
    func scheduleFollowUp(at instant: MonotonicInstant, key: CostKey, _ action: @escaping (HapticPatternPlayer) throws -> Void) {
        let entry = nextEntryNumber()
        let token = engine.scheduleControl(at: instant, key: key, class: .housekeeping) { [weak self] in
            guard let self, self.fired(entry) else { return }
            try action(self)
        }
        pending[entry] = Pending(token: token, time: .infinity)
    }

    /// Whether the command `entry` is still wanted (it was not cancelled meanwhile); forgets it.
    func fired(_ entry: Int) -> Bool {
        pending.removeValue(forKey: entry) != nil
    }

    /// The program on `name` reached its `.stop`.
    func channelEnded(_ name: String) {
        endedChannels.insert(name)
        guard endedChannels.count == channels.count else { return }
        finish(reporting: nil)
    }

    /// Stops output now, drops what is pending and reports the end (`error` for a forced stop).
    /// Idle actuators go to standby at once: a stop is not a pause before more content.
    func stopNow(reporting error: (any Error)?) throws {
        defer { finish(reporting: error) }
        try releaseAll(standby: true)
    }

    private func finish(reporting error: (any Error)?) {
        cancelScheduled()
        segment = nil
        pausedOffset = nil
        engine.playerFinished(self)
        if let completion { engine.later { completion(error) } }
    }

    /// The actuators named `failing` failed: drops everything pending, leaves the other
    /// actuators as a stop does (the last player out stops one and puts it in standby), leaves
    /// the failing ones without touching them (the engine makes them safe) and reports `error`
    /// to the completion handler. Returns the working actuators that could not be left cleanly.
    func endAfterFault(on failing: Set<String>, reporting error: any Error) -> [(ActuatorChannel, any Error)] {
        cancelControls()
        engine.playerStoppedAudio(player: id)
        var failures: [(ActuatorChannel, any Error)] = []
        for channel in channels where channel.activePlayers.contains(id) {
            if failing.contains(channel.name) {
                leaveWithoutStopping(channel)
            } else {
                do { try engine.release(self, from: channel, standby: true) } catch { failures.append((channel, error)) }
            }
        }
        finish(reporting: error)
        return failures
    }

    /// Forgets every pending command and claim without touching the hardware (the engine makes
    /// the actuators safe itself).
    func halt() {
        cancelScheduled()
        cancelControls()
        segment = nil
        pausedOffset = nil
        channels.forEach(leaveWithoutStopping)
    }

    /// Drops the stops, pauses and resumes scheduled for a later time.
    private func cancelControls() {
        for token in controlTokens.values { engine.scheduler.cancel(token) }
        controlTokens = [:]
    }

    /// Takes this player's level out of `channel`'s mix and its claim off it, writing nothing.
    private func leaveWithoutStopping(_ channel: ActuatorChannel) {
        channel.mixer.remove(id)
        channel.activePlayers.remove(id)
    }
}
