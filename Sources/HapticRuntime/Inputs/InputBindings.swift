import ActuatorHAL
import FoundationEssentials

/// Plays a board's input bindings through a `HapticService`: the service's engine, scheduler,
/// priorities and mixing, like any client's request (nothing here touches a driver).
///
/// Polyphony as in PianoPlay: presses on different buttons start players of their own, which
/// mix (or preempt, by priority); a retriggered binding restarts or layers; a held binding loops
/// its content until release, then plays its tail, and ends at its maximum hold when the release
/// never comes. Hold delays, repeats and maximum holds are deadlines on the service's scheduler,
/// from the edge's own timestamp, so they run on the virtual clock in tests.
public final class InputBindings: @unchecked Sendable {
    /// What one input event did.
    public struct Report: Sendable, Hashable {
        public var event: InputEvent
        /// The service players it started.
        public var players: [Int]
        /// Requests the service refused, each with its reason.
        public var problems: [String]
    }

    /// The client bindings play as (the service's rate limit and arbitration see them as one).
    public static let client = ServiceClient(id: -1)
    /// Players of one layering binding remembered for stopping; older ones have long ended.
    static let rememberedPlayers = 16

    public let service: HapticService
    public let bindings: [InputBinding]
    /// Called after each event with what it did, outside the bindings' lock.
    public var reportHandler: (@Sendable (Report) -> Void)? {
        get { locked { reportValue } }
        set { locked { reportValue = newValue } }
    }

    private let lock = Lock()
    private var reportValue: (@Sendable (Report) -> Void)?
    /// Live players by binding index, newest last.
    private var players: [Int: [Int]] = [:]
    /// The looping player of each held binding.
    private var held: [Int: Int] = [:]
    /// Hold delays, repeats and maximum holds by binding index.
    private var timers: [Int: ScheduledToken] = [:]

    public init(service: HapticService, bindings: [InputBinding]) {
        self.service = service
        self.bindings = bindings
    }

    /// Acts on `event`: fires press, release and step bindings, starts or ends holds.
    public func receive(_ event: InputEvent) {
        var report = Report(event: event, players: [], problems: [])
        let handler = locked { () -> (@Sendable (Report) -> Void)? in
            for (index, binding) in bindings.enumerated() where binding.input == event.input {
                switch (binding.trigger, event.kind) {
                case (.press, .press), (.release, .release):
                    fire(index, binding.content, &report)
                case (.step(let direction), .step(let moved)) where direction == nil || direction == moved:
                    fire(index, binding.content, &report)
                case (.hold(let after, _), .press):
                    cancelTimer(index)
                    scheduleHold(index, at: event.timestamp + after, until: event.timestamp + binding.maximumHold)
                case (.hold, .release):
                    cancelTimer(index)
                case (.whileHeld, .press):
                    endHeld(index, tail: nil, restarting: true, &report)
                    startHeld(index, until: event.timestamp + binding.maximumHold, &report)
                case (.whileHeld(let tail), .release):
                    endHeld(index, tail: tail, &report)
                default:
                    continue
                }
            }
            return reportValue
        }
        service.publishInput(report)
        handler?(report)
    }

    /// Stops every held binding and timer (their tails are not played): the board is closing.
    public func stopAll() {
        locked {
            for token in timers.values { service.scheduler.cancel(token) }
            timers = [:]
            for id in held.values { try? service.stop(player: id) }
            held = [:]
        }
    }

    // MARK: Firing

    private func request(_ index: Int, _ content: InputContent, loops: Bool = false) -> ServicePlayRequest {
        let binding = bindings[index]
        return ServicePlayRequest(content: content.serviceContent, actuators: binding.actuators, priority: binding.priority, outlivesClient: true, loops: loops)
    }

    @discardableResult
    private func play(_ request: ServicePlayRequest, _ report: inout Report) -> Int? {
        do {
            guard let id = try service.play(request, from: Self.client).player?.id else { return nil }
            report.players.append(id)
            return id
        } catch {
            report.problems.append("\(report.event.input): \(error)")
            return nil
        }
    }

    private func fire(_ index: Int, _ content: InputContent, _ report: inout Report) {
        if bindings[index].retrigger == .restart {
            // Started again at once: the actuator is not put in standby in between.
            for id in players[index] ?? [] { try? service.stop(player: id, standby: false) }
            players[index] = []
        }
        guard let id = play(request(index, content), &report) else { return }
        players[index, default: []].append(id)
        if players[index, default: []].count > Self.rememberedPlayers { players[index]?.removeFirst() }
    }

    private func startHeld(_ index: Int, until end: MonotonicInstant, _ report: inout Report) {
        guard let id = play(request(index, bindings[index].content, loops: true), &report) else { return }
        held[index] = id
        cancelTimer(index)
        timers[index] = service.scheduler.schedule(at: end, class: .control, costKey: "input-maximum-hold") { [weak self] in
            self?.maximumHoldReached(index)
        }
    }

    /// Ends held binding `index`'s loop and plays `tail` (nothing when it was not held); when
    /// `restarting`, its loop starts again at once.
    private func endHeld(_ index: Int, tail: InputContent?, restarting: Bool = false, _ report: inout Report) {
        cancelTimer(index)
        guard let id = held.removeValue(forKey: index) else { return }
        // Feedback follows at once (the tail, or the loop again): no standby in between.
        try? service.stop(player: id, standby: tail == nil && !restarting)
        if let tail { play(request(index, tail), &report) }
    }

    private func maximumHoldReached(_ index: Int) {
        guard case .whileHeld(let tail) = bindings[index].trigger else { return }
        var report = Report(event: InputEvent(input: bindings[index].input, kind: .release, timestamp: service.scheduler.clock.now), players: [], problems: [])
        let handler = locked { () -> (@Sendable (Report) -> Void)? in
            timers[index] = nil
            endHeld(index, tail: tail, &report)
            report.problems.append("\(bindings[index].input): held past its maximum hold (\(bindings[index].maximumHold)); ended as if released")
            return reportValue
        }
        handler?(report)
    }

    private func scheduleHold(_ index: Int, at instant: MonotonicInstant, until end: MonotonicInstant) {
        guard instant <= end else { return }
        timers[index] = service.scheduler.schedule(at: instant, class: .control, costKey: "input-hold") { [weak self] in
            self?.holdReached(index, at: instant, until: end)
        }
    }

    private func holdReached(_ index: Int, at instant: MonotonicInstant, until end: MonotonicInstant) {
        guard case .hold(_, let repeatEvery) = bindings[index].trigger else { return }
        var report = Report(event: InputEvent(input: bindings[index].input, kind: .press, timestamp: instant), players: [], problems: [])
        let handler = locked { () -> (@Sendable (Report) -> Void)? in
            timers[index] = nil
            fire(index, bindings[index].content, &report)
            if let repeatEvery, repeatEvery > .zero { scheduleHold(index, at: instant + repeatEvery, until: end) }
            return reportValue
        }
        handler?(report)
    }

    private func cancelTimer(_ index: Int) {
        if let token = timers.removeValue(forKey: index) { service.scheduler.cancel(token) }
    }

    private func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
