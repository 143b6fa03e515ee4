import ActuatorHAL
import FoundationEssentials

/// One long-running owner of a board: it keeps the engine warm and plays what clients ask for —
/// content inline or from a library, ROM effects, the feedback vocabulary, named events — with
/// priorities, limits and an event stream. `hapticboard serve` puts it behind HTTP and WebSocket;
/// firmware can own one directly.
///
/// - Arbitration: a request of higher priority preempts the players on the actuators it needs;
///   one of lower priority is refused (`busy`); equal priorities mix, up to
///   `Limits.playersPerActuator` on each actuator.
/// - Limits: per-client trigger rate, content duration and event count.
/// - Feedback a client started stops when its connection closes (`clientLeft`) unless the
///   request asked to outlive it.
/// - Start-up puts every actuator in standby before anything is served, so a restart after a
///   crash starts safe; `shutDown()` stops everything and leaves every actuator in standby.
public final class HapticService: @unchecked Sendable {
    /// What the service refuses beyond.
    public struct Limits: Sendable, Hashable {
        /// Players mixing on one actuator at once.
        public var playersPerActuator = 8
        /// The longest content played (its compiled length).
        public var maximumDuration = Duration.seconds(30)
        /// The most events one request may hold.
        public var maximumEvents = 10_000
        /// Triggers a client may send per second, sustained, and at once.
        public var triggersPerSecond = 1_000.0
        public var triggerBurst = 2_000.0

        public init() {}

        /// For benchmarks that drive one service as hard as they can: no rate limit, and as many
        /// players mixing as the load makes (the other limits as they are).
        public static var unthrottled: Limits {
            var limits = Limits()
            limits.playersPerActuator = 100_000
            limits.triggersPerSecond = 1_000_000
            limits.triggerBurst = 1_000_000
            return limits
        }
    }

    /// How a player ended, or that the service does not know it.
    private struct Entry {
        var info: ServicePlayerInfo
        var players: [HapticAdvancedPatternPlayer]
        var unfinished: Int
        /// Where its players are kept when it ends cleanly, to be started again; nil: not kept.
        var readyKey: ReadyPlayers.Key?
        var warnings: [String]
    }

    public let board: OpenedBoard
    public let engine: HapticEngine
    public let scheduler: DeadlineScheduler
    public let limits: Limits
    private let lock = Lock(recursive: true)
    private var libraryValue: ContentLibrary
    /// `playableLibraryNames` of the library in use, once worked out; nil again on reload.
    private var playableNames: [String]?
    /// Counts reloads, so names worked out for a library a reload replaced are not kept.
    private var libraryGeneration = 0
    private var themeValue: FeedbackTheme?
    private var profileValue = FeedbackProfile.full
    private var entries: [Int: Entry] = [:]
    private var nextPlayerID = 0
    private var buckets: [Int: TokenBucket] = [:]
    private var subscribers: [Int: @Sendable (ServiceEvent) -> Void] = [:]
    /// What each subscriber asked to be told when the service shuts down, by token.
    private var subscriptionEnds: [Int: @Sendable () -> Void] = [:]
    private var nextSubscriberID = 0
    private var endWaiters: [Int: [@Sendable (PlayerEndReason) -> Void]] = [:]
    private var countersValue = ServiceCounters()
    private var readyPlayers = ReadyPlayers()

    /// A service for every actuator of `board`, scheduling on `scheduler` (on the board's clock:
    /// run its thread with `start(timing:)`, or step it on a virtual clock), playing `library`'s
    /// content by name and `theme`'s named events, with `sound` as the sound output (nil: haptics
    /// only).
    public init(board: OpenedBoard, scheduler: DeadlineScheduler, library: ContentLibrary, theme: FeedbackTheme? = nil, sound: EngineAudio? = nil, limits: Limits = Limits()) {
        self.board = board
        self.scheduler = scheduler
        self.limits = limits
        libraryValue = library
        themeValue = theme
        engine = board.makeEngine(scheduler: scheduler)
        engine.attachAudio(sound)
        engine.playsHapticsOnly = sound == nil
        engine.stoppedHandler = { [weak self] reason in self?.engineStopped(reason) }
        engine.actuatorFaultHandler = { [weak self] report in self?.actuatorsFailed(report) }
        engine.powerTransitionHandler = { [weak self] transition in
            let report = transition.report
            self?.publish(.powerTransition(
                actuator: transition.actuator, transition: report.transition.rawValue, from: report.from.rawValue, to: report.to.rawValue,
                elapsedMicroseconds: TransitionRecord.microseconds(report.elapsed), budgetMicroseconds: TransitionRecord.microseconds(report.budget)
            ))
        }
    }

    // MARK: Lifecycle

    /// Starts the engine with every actuator in standby — woken, configured, output stopped — so
    /// whatever a previous process left behind is stopped before anything is served; then the
    /// timing thread with `timing` (nil: the caller steps the scheduler on a virtual clock).
    public func start(timing: (any TimingThreadSetup)?) throws {
        try engine.wakeActuators()
        try engine.standbyActuators()
        try engine.start()
        if let timing { scheduler.startThread(setup: timing) }
    }

    /// Ends every player, leaves every actuator stopped and in standby, stops the timing thread
    /// and stands the board's crash protection down.
    public func shutDown() {
        let ended: [Int] = locked {
            let ids = Array(entries.keys)
            entries = [:]
            readyPlayers.removeAll()
            return ids
        }
        let stopped = StopOutcome()
        engine.stop { error in stopped.error = error }
        scheduler.stopThread()
        for id in ended { finish(id, .shutDown) }
        board.close()
        // Last, so every subscriber has seen its players end: an event stream then closes and
        // its connection no longer holds the transport's shutdown up.
        let ends = locked {
            defer { subscribers = [:]; subscriptionEnds = [:] }
            return Array(subscriptionEnds.values)
        }
        for end in ends { end() }
    }

    // MARK: Playing

    /// What `play` started.
    public struct Started: Sendable {
        /// The player, or nil when a named event has no feedback at the profile.
        public var player: ServicePlayerInfo?
        /// What the content's reader and the compiler had to say.
        public var warnings: [String]
    }

    /// Plays `request` for `client`; `onEnd`, when given, is called once when the player ends.
    /// - Throws: `ServiceError` with a reason code: content that does not load or is too long,
    ///   an unknown actuator, library item, event or profile, `busy` (a higher priority holds an
    ///   actuator), `tooManyPlayers`, `rateLimited`, `engineUnavailable`.
    public func play(_ request: ServicePlayRequest, from client: ServiceClient, onEnd: (@Sendable (PlayerEndReason) -> Void)? = nil) throws(ServiceError) -> Started {
        try takeToken(for: client)
        guard ServicePlayRequest.priorities.contains(request.priority) else {
            throw refused(ServiceError(.invalidRequest, "priority \(request.priority): expected an integer in \(ServicePlayRequest.priorities)", pointer: "/priority"))
        }
        // Before the content: an actuator the board does not have is a mistake even when the
        // profile gives the event no feedback.
        let targets = try actuators(request.actuators)
        let readyKey = self.readyKey(for: request, on: targets, client: client)
        let prepared: ReadyPlayers.Prepared
        if let readyKey, let ready = locked({ readyPlayers.take(readyKey) }) {
            for player in ready.players { player.prerenderSounds() }
            prepared = ready
        } else {
            let (name, content) = try resolve(request, for: client)
            guard let content else { return Started(player: nil, warnings: []) }
            prepared = try locked { () throws(ServiceError) in try prepare(content, named: name, on: targets) }
        }
        return try locked { () throws(ServiceError) -> Started in
            do throws(ServiceError) {
                try makeRoom(on: targets, priority: request.priority)
            } catch {
                // Made or kept, they have not played: the next request may have them.
                if let readyKey { readyPlayers.keep(prepared, for: readyKey) }
                throw error
            }
            nextPlayerID += 1
            let id = nextPlayerID
            let players = prepared.players
            let info = ServicePlayerInfo(
                id: id, name: prepared.name, client: client.id, priority: request.priority,
                actuators: targets ?? engine.actuatorNames, duration: prepared.duration, outlivesClient: request.outlivesClient
            )
            entries[id] = Entry(info: info, players: players, unfinished: players.count, readyKey: readyKey, warnings: prepared.warnings)
            if let onEnd { endWaiters[id] = [onEnd] }
            for player in players {
                player.loopEnabled = request.loops
                player.completionHandler = { [weak self] error in self?.playerCompleted(id, error: error) }
                do {
                    try player.start(atTime: 0)
                } catch {
                    cancel(id, .engineStopped)
                    throw ServiceError(.engineUnavailable, "\(error)")
                }
            }
            countersValue.triggers += 1
            publish(.playerStarted(info))
            return Started(player: info, warnings: prepared.warnings)
        }
    }

    /// Stops player `id` at once. Its actuators go to standby, unless `standby` is false: then
    /// they are left stopped and ready for feedback that follows at once (a retriggered input
    /// binding), and go to standby by their idle timeouts.
    public func stop(player id: Int, standby: Bool = true) throws(ServiceError) {
        try locked { () throws(ServiceError) in
            guard entries[id] != nil else { throw ServiceError(.unknownPlayer, "no player \(id) (it may have ended)") }
            cancel(id, .stopped, standby: standby)
        }
    }

    /// Stops every player.
    public func stopAll() {
        locked {
            for id in entries.keys.sorted() { cancel(id, .stopped) }
        }
    }

    /// The players playing now, oldest first.
    public var players: [ServicePlayerInfo] {
        locked { entries.values.map(\.info).sorted { $0.id < $1.id } }
    }

    /// Calls `handler` once when player `id` ends; false (and no call) when there is no such player.
    @discardableResult
    public func whenEnded(_ id: Int, _ handler: @escaping @Sendable (PlayerEndReason) -> Void) -> Bool {
        locked {
            guard entries[id] != nil else { return false }
            endWaiters[id, default: []].append(handler)
            return true
        }
    }

    /// The client's connection closed: its players that did not ask to outlive it stop.
    public func clientLeft(_ client: ServiceClient) {
        locked {
            for (id, entry) in entries where entry.info.client == client.id && !entry.info.outlivesClient {
                cancel(id, .clientLeft)
            }
            buckets[client.id] = nil
        }
    }

    /// Readies every idle actuator now and keeps it ready for `duration` of idleness; then it goes
    /// off (EN low).
    public func keepAwake(for duration: Duration) throws(ServiceError) {
        do {
            try engine.keepAwake(for: duration)
        } catch {
            throw ServiceError(.engineUnavailable, "\(error)")
        }
    }

    // MARK: Library, theme, profile

    /// The content library and the theme in use.
    public var library: ContentLibrary { locked { libraryValue } }
    public var theme: FeedbackTheme? { locked { themeValue } }

    /// The content library's names this service plays: those within its limits (`maximumEvents`,
    /// and `maximumDuration` on every actuator, as `play` checks them). A request for another is
    /// refused (`too-many-events`, `pattern-too-long`).
    ///
    /// Worked out once per library (each item compiled, as playing it would), not per call: a
    /// client asking for the API document over and over must not keep the engine compiling.
    public var playableLibraryNames: [String] {
        let (library, known, generation) = locked { (libraryValue, playableNames, libraryGeneration) }
        if let known { return known }
        let names = library.names.filter { name in
            guard let pattern = library.items[name]?.pattern, pattern.events.count <= limits.maximumEvents else { return false }
            // Compiled outside the engine's lock, which the timing thread needs for every stream
            // playing meanwhile (a SIGHUP's reload comes while content plays).
            let ahead = engine.compileAhead(pattern, for: engine.channels)
            let duration = engine.locked { engine.channels.map { engine.compile(pattern, for: $0, ahead: ahead[$0.name]).duration }.max() ?? 0 }
            return duration <= limits.maximumDuration.secondsValue
        }
        // Kept only if no reload replaced the library meanwhile.
        locked { if libraryGeneration == generation { playableNames = names } }
        return names
    }

    /// Replaces the library and theme (on SIGHUP); players already playing go on.
    public func reload(library: ContentLibrary, theme: FeedbackTheme?) {
        locked {
            libraryValue = library
            playableNames = nil
            libraryGeneration += 1
            themeValue = theme
            // Kept players play what the old library and theme named.
            readyPlayers.removeAll()
        }
    }

    /// The profile named events play at.
    public var profile: FeedbackProfile {
        get { locked { profileValue } }
        set {
            let changed = locked { () -> Bool in
                defer { profileValue = newValue }
                return profileValue != newValue
            }
            if changed { publish(.profileChanged(newValue)) }
        }
    }

    // MARK: Status and events

    /// What `status` reports: the board, the profile, each actuator's power state and players.
    public var status: ServiceStatus {
        let states = engine.actuatorStates
        return locked {
            ServiceStatus(
                board: board.board.name, running: engine.isRunning, profile: profileValue,
                actuators: board.actuators.map { actuator in
                    ServiceStatus.Actuator(
                        name: actuator.name, powerState: states[actuator.name]?.rawValue ?? "unknown",
                        players: entries.values.filter { $0.info.actuators.contains(actuator.name) }.count,
                        calibrated: actuator.drv2605?.calibration != nil
                    )
                },
                players: entries.count, lastFault: engine.lastFault.map { "\($0)" },
                library: libraryValue.names, theme: themeValue?.name, skippedFeedbackTypes: (themeValue?.skippedTypes ?? []).sorted()
            )
        }
    }

    /// Counts since start: triggers, refusals by reason code, preemptions, faults.
    public var counters: ServiceCounters { locked { countersValue } }

    /// Sends every later event to `handler` (on whichever thread it happens, outside the
    /// service's lock), and calls `ended` once when the service shuts down; returns a token for
    /// `unsubscribe`.
    public func subscribe(_ handler: @escaping @Sendable (ServiceEvent) -> Void, ended: (@Sendable () -> Void)? = nil) -> Int {
        locked {
            nextSubscriberID += 1
            subscribers[nextSubscriberID] = handler
            if let ended { subscriptionEnds[nextSubscriberID] = ended }
            return nextSubscriberID
        }
    }

    public func unsubscribe(_ token: Int) {
        locked {
            subscribers.removeValue(forKey: token)
            subscriptionEnds.removeValue(forKey: token)
        }
    }

    /// Counts a refusal the transport made itself (a body too large, a missing token).
    public func countRefusal(_ code: ServiceError.Code) {
        locked { countersValue.refusals[code.rawValue, default: 0] += 1 }
    }

    // MARK: Internals

    /// The engine players behind service player `id` (for tests).
    func enginePlayers(of id: Int) -> [HapticAdvancedPatternPlayer] {
        locked { entries[id]?.players ?? [] }
    }

    private func takeToken(for client: ServiceClient) throws(ServiceError) {
        try locked { () throws(ServiceError) in
            let now = engine.clock.now
            var bucket = buckets[client.id] ?? TokenBucket(rate: limits.triggersPerSecond, burst: limits.triggerBurst, now: now)
            let wait = bucket.take(at: now)
            buckets[client.id] = bucket
            if let wait { throw refused(ServiceError(.rateLimited, "more than \(Int(limits.triggersPerSecond)) triggers per second; retry in \(Int((wait.secondsValue * 1000).rounded(.up))) ms")) }
        }
    }

    /// The content a request names, with the name players and events call it by; nil content for
    /// a named event the profile gives no feedback.
    private func resolve(_ request: ServicePlayRequest, for client: ServiceClient) throws(ServiceError) -> (String, LoadedContent?) {
        let library = self.library
        do throws(ServiceError) {
            switch request.content {
            case .ahap(let text): return ("ahap", try parse(text, .ahap, in: library, fileExtension: "ahap"))
            case .notation(let text): return ("notation", try parse(text, .notation, in: library, fileExtension: "hnl"))
            case .notes(let text): return ("notes", try parse(text, .notes, in: library, fileExtension: "notes"))
            case .library(let name):
                guard let content = library.items[name] else {
                    let suggestion = NameSuggestion.nearest(to: name, in: library.names).map { "; did you mean '\($0)'?" } ?? ""
                    throw ServiceError(.notInLibrary, "no '\(name)' in the content library\(suggestion)")
                }
                return (name, content)
            case .effect(let id):
                guard let pattern = HapticPattern(playingROMEffect: id) else { throw ServiceError(.invalidRequest, "ROM effect \(id) is not 1...123", pointer: "/effect") }
                return ("effect \(id)", LoadedContent(format: .notes, pattern: pattern))
            case .feedback(let feedback, let intensity):
                guard intensity.isFinite, (0...1).contains(intensity) else { throw ServiceError(.invalidRequest, "intensity \(intensity) is not in 0...1", pointer: "/intensity") }
                return ("feedback", LoadedContent(format: .notes, pattern: HapticPattern(notes: [.hapticFeedback(feedback)], intensity: intensity)))
            case .event(let event):
                return (event, try eventContent(event, request: request, client: client, library: library))
            case .pattern(let name, let pattern):
                return (name, LoadedContent(format: .notes, pattern: pattern))
            }
        } catch {
            throw refused(error)
        }
    }

    /// `text` read as if it were the file `request.EXT` in the library's folder, so that the sounds
    /// it names resolve there (and only there).
    private func parse(_ text: String, _ format: ContentFormat, in library: ContentLibrary, fileExtension: String) throws(ServiceError) -> LoadedContent {
        let file = library.folder.appendingPathComponent("request.\(fileExtension)").path
        let content: LoadedContent
        do {
            content = try ContentLoader.parse(text, format: format, file: file)
        } catch {
            throw ServiceError(content: error, file: file)
        }
        // A sound that would be played must be there; without a sound output the haptics play.
        if !engine.playsHapticsOnly, let problem = content.waveformProblems.first {
            throw ServiceError(content: .ahap(problem), file: file)
        }
        return content
    }

    private func eventContent(_ event: String, request: ServicePlayRequest, client: ServiceClient, library: ContentLibrary) throws(ServiceError) -> LoadedContent? {
        guard let theme = self.theme, theme.names(event) else {
            throw ServiceError(.unknownEvent, "no feedback theme names the event '\(event)'")
        }
        var profile = self.profile
        if let asked = request.profile, asked != profile {
            guard asked < profile || client.mayOverrideProfile else {
                throw ServiceError(.overrideNotAllowed, "this client may not play events louder than the current profile (\(profile.rawValue))")
            }
            profile = asked
        }
        var pattern = HapticPattern()
        for feedback in theme.feedback(for: event, at: profile) {
            switch feedback {
            case .pattern(let part): pattern.events += part.events
                pattern.parameterCurves += part.parameterCurves
            case .library(let name):
                guard let content = library.items[name] else { throw ServiceError(.notInLibrary, "the theme plays '\(name)' for '\(event)', which is not in the content library") }
                pattern.events += content.pattern.events
                pattern.parameters += content.pattern.parameters
                pattern.parameterCurves += content.pattern.parameterCurves
            case .skipped:
                continue
            }
        }
        return pattern.events.isEmpty ? nil : LoadedContent(format: .notes, pattern: pattern)
    }

    /// The actuators named, checked; nil for every actuator.
    private func actuators(_ names: [String]?) throws(ServiceError) -> [String]? {
        // An empty list would make a player on no actuator, one that never ends.
        if names?.isEmpty == true {
            throw refused(ServiceError(.invalidRequest, "no actuator named: name at least one of \(engine.actuatorNames.joined(separator: ", ")), or none for every actuator", pointer: "/actuators"))
        }
        guard let names, Set(names) != Set(engine.actuatorNames) else { return nil }
        for name in names where !engine.actuatorNames.contains(name) {
            throw refused(ServiceError(.unknownActuator, "board \(board.board.name) has no actuator '\(name)' (it has \(engine.actuatorNames.joined(separator: ", ")))"))
        }
        return Array(Set(names)).sorted()
    }

    /// Preempts lower priorities on `targets` (nil: every actuator), refuses when a higher one
    /// holds one of them or when an actuator already mixes as many players as allowed.
    ///
    /// One pass over the players, without building collections: it runs on every trigger, and a
    /// busy service has many players.
    private func makeRoom(on targets: [String]?, priority: Int) throws(ServiceError) {
        let wanted = targets ?? engine.actuatorNames
        var preempted: [Int] = []
        var mixing = [Int](repeating: 0, count: wanted.count)
        for (id, entry) in entries where wanted.contains(where: entry.info.actuators.contains) {
            if entry.info.priority > priority {
                let held = entry.info.actuators.filter(wanted.contains).sorted()
                throw refused(ServiceError(.busy, "player \(id) of priority \(entry.info.priority) holds \(held.joined(separator: ", "))"))
            }
            if entry.info.priority < priority {
                preempted.append(id)
                continue
            }
            // Equal priority: it mixes with the new player.
            for (index, actuator) in wanted.enumerated() where entry.info.actuators.contains(actuator) { mixing[index] += 1 }
        }
        for id in preempted.sorted() {
            countersValue.preemptions += 1
            // The new player takes the actuators at once: no standby and wake between the two.
            cancel(id, .preempted, standby: false)
        }
        for (index, actuator) in wanted.enumerated() where mixing[index] >= limits.playersPerActuator {
            throw refused(ServiceError(.tooManyPlayers, "\(mixing[index]) players already mix on \(actuator); the limit is \(limits.playersPerActuator)"))
        }
    }

    /// New players for `content` on `targets` (nil: every actuator), within the limits.
    private func prepare(_ content: LoadedContent, named name: String, on targets: [String]?) throws(ServiceError) -> ReadyPlayers.Prepared {
        let pattern = content.pattern
        guard pattern.events.count <= limits.maximumEvents else {
            throw ServiceError(.tooManyEvents, "\(pattern.events.count) events; the service plays at most \(limits.maximumEvents) per request")
        }
        let players: [HapticAdvancedPatternPlayer]
        do {
            if !engine.isRunning { try engine.start() }
            if let targets {
                players = try targets.map { try engine.makeAdvancedPlayer(with: pattern, on: $0) }
            } else {
                players = [try engine.makeAdvancedPlayer(with: pattern)]
            }
        } catch {
            throw ServiceError(.engineUnavailable, "\(error)")
        }
        let duration = players.map(\.duration).max() ?? 0
        guard duration <= limits.maximumDuration.secondsValue else {
            throw ServiceError(.patternTooLong, "the content plays \(duration) s; the service plays at most \(limits.maximumDuration.secondsValue) s per request")
        }
        let warnings = content.warnings.map(\.description) + players.flatMap { $0.programs.values.flatMap(\.warnings) }.map { "\(name): \($0)" }
        return ReadyPlayers.Prepared(name: name, players: players, duration: duration, warnings: Array(Set(warnings)).sorted())
    }

    /// Where `request`'s players are kept for the next request like it; nil when they are not
    /// (long inline text, or an event at a profile this client may not ask for: `resolve` says why).
    private func readyKey(for request: ServicePlayRequest, on targets: [String]?, client: ServiceClient) -> ReadyPlayers.Key? {
        var profile: FeedbackProfile?
        if case .event = request.content {
            let current = self.profile
            let asked = request.profile ?? current
            guard asked <= current || client.mayOverrideProfile else { return nil }
            profile = asked
        }
        return ReadyPlayers.key(for: request.content, on: targets, profile: profile)
    }

    private func playerCompleted(_ id: Int, error: (any Error)?) {
        if let error, !Self.isDriveLimitCut(error) {
            // One of its actuators failed: the whole request ends, on its other actuators too.
            locked { cancel(id, .actuatorFault) }
            return
        }
        let ended = locked { () -> Bool in
            guard var entry = entries[id] else { return false }
            entry.unfinished -= 1
            entries[id] = entry.unfinished > 0 ? entry : nil
            guard entry.unfinished == 0 else { return false }
            if error == nil { keepPlayers(of: entry) }
            return true
        }
        if ended { finish(id, error == nil ? .finished : .engineStopped) }
    }

    private static func isDriveLimitCut(_ error: any Error) -> Bool {
        if case HapticEngineError.continuousDriveLimit = error { true } else { false }
    }

    /// Stops every engine player of `id` at once and ends it with `reason`; `standby` as in
    /// `stop(player:standby:)`.
    private func cancel(_ id: Int, _ reason: PlayerEndReason, standby: Bool = true) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        var stoppedCleanly = true
        for player in entry.players {
            do { try player.cancel(standby: standby) } catch { stoppedCleanly = false }
        }
        if stoppedCleanly, [.stopped, .preempted, .clientLeft].contains(reason) { keepPlayers(of: entry) }
        finish(id, reason)
    }

    /// Keeps the players of an entry that ended cleanly for the next request for its content.
    private func keepPlayers(of entry: Entry) {
        guard let key = entry.readyKey else { return }
        readyPlayers.keep(ReadyPlayers.Prepared(name: entry.info.name, players: entry.players, duration: entry.info.duration, warnings: entry.warnings), for: key)
    }

    /// Players kept to be started again (`ReadyPlayers`).
    var readyPlayerCount: Int { locked { readyPlayers.count } }

    /// Lets go of the players kept to be started again.
    func dropReadyPlayers() {
        locked { readyPlayers.removeAll() }
    }

    private func finish(_ id: Int, _ reason: PlayerEndReason) {
        let waiters = locked { endWaiters.removeValue(forKey: id) ?? [] }
        for waiter in waiters { waiter(reason) }
        publish(.playerEnded(id: id, reason: reason))
    }

    private func engineStopped(_ reason: HapticEngine.StoppedReason) {
        guard reason != .idleTimeout else { return }
        let ids = locked { () -> [Int] in
            countersValue.faults += 1
            let ids = Array(entries.keys)
            entries = [:]
            readyPlayers.removeAll()
            return ids
        }
        publish(.fault(reason: "\(reason)", message: engine.lastFault.map { "\($0)" } ?? "\(reason)", actuators: nil))
        for id in ids.sorted() { finish(id, .engineStopped) }
    }

    /// A fault the engine kept to some actuators: their players have ended (`actuator-fault`),
    /// the others play on.
    private func actuatorsFailed(_ report: ActuatorFaultReport) {
        locked { countersValue.faults += 1 }
        publish(.fault(reason: "\(report.outcome)", message: "\(report.fault)", actuators: report.actuators))
    }

    /// `body` under the service's lock (recursive: engine callbacks may come back in on this thread).
    private func locked<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    private func refused(_ error: ServiceError) -> ServiceError {
        locked { countersValue.refusals[error.code.rawValue, default: 0] += 1 }
        return error
    }

    /// Puts what an input event did on the event stream.
    func publishInput(_ report: InputBindings.Report) {
        let kind: String
        var direction: Int?
        switch report.event.kind {
        case .press: kind = "press"
        case .release: kind = "release"
        case .step(let moved): (kind, direction) = ("step", moved)
        }
        publish(.input(input: report.event.input, kind: kind, direction: direction, edgeNanoseconds: report.event.timestamp.nanoseconds, players: report.players))
    }

    private func publish(_ event: ServiceEvent) {
        let handlers = locked { Array(subscribers.values) }
        for handler in handlers { handler(event) }
    }
}

/// The engine's answer to `stop`, for `shutDown`.
private final class StopOutcome: @unchecked Sendable {
    var error: (any Error)?
}

/// Counts since the service started.
public struct ServiceCounters: Sendable, Hashable, Codable {
    /// Players started.
    public var triggers = 0
    /// Requests refused, by reason code.
    public var refusals: [String: Int] = [:]
    /// Players stopped by a request of higher priority.
    public var preemptions = 0
    /// Faults: the engine stopped on its own, or ended the players of the actuators that failed.
    public var faults = 0

    public init() {}
}

/// What `status` reports.
public struct ServiceStatus: Sendable, Hashable, Codable {
    public struct Actuator: Sendable, Hashable, Codable {
        public var name: String
        public var powerState: String
        public var players: Int
        /// Whether a stored calibration is restored at wake.
        public var calibrated: Bool
    }

    public var board: String
    public var running: Bool
    public var profile: FeedbackProfile
    public var actuators: [Actuator]
    public var players: Int
    public var lastFault: String?
    /// The content library's names.
    public var library: [String]
    public var theme: String?
    /// Theme feedback types with nothing to play on here (`Sound`, `Led`).
    public var skippedFeedbackTypes: [String]
}

extension ServiceError {
    /// A content error as the service reports it: the located message, its line and column, and
    /// for AHAP the key as a JSON pointer (RFC 6901), with the service's file name left out.
    init(content error: ContentLoadingError, file: String) {
        var line: Int?
        var column: Int?
        var pointer: String?
        switch error {
        case .ahap(let ahap):
            line = ahap.location?.line
            column = ahap.location?.column
            pointer = ahap.keyPath?.jsonPointer
        case .notation(let notation):
            line = notation.line
            column = notation.column
        case .notes(let notes):
            line = notes.line
            column = notes.column
        default:
            break
        }
        let message = error.description.replacing(file + ":", with: "").replacing(file, with: "request")
        self.init(.invalidContent, message, line: line, column: column, pointer: pointer)
    }
}

extension DocumentKeyPath {
    /// The path as a JSON pointer (RFC 6901): `/Pattern/3/Event/Time`.
    public var jsonPointer: String {
        components.map { component in
            switch component {
            case .key(let key): "/" + key.replacing("~", with: "~0").replacing("/", with: "~1")
            case .index(let index): "/\(index)"
            }
        }.joined()
    }
}
