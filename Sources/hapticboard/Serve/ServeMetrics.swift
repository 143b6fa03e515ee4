import ActuatorHAL
import Foundation
import HapticRuntime
import Prometheus

/// `GET /metrics` in Prometheus' text format (swift-prometheus): triggers, refusals by reason,
/// preemptions, faults, power transitions by kind and actuator, connected clients and playing
/// players, and the timing thread's dispatch lateness as a histogram.
final class ServeMetrics: @unchecked Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let triggers: Counter
    private let silentEvents: Counter
    private let lock = NSLock()
    private var exported = ServiceCounters()
    private var transitionCounters: [String: Counter] = [:]
    private var overrunCounters: [String: Counter] = [:]
    /// The lateness buckets (seconds): from the scheduler's typical tens of microseconds to a
    /// missed 10 ms.
    static let latenessBounds: [Duration] = [.microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10)]

    init(service: HapticService) {
        triggers = registry.makeCounter(descriptor: Self.counter("requests", "Play requests accepted (players started, or named events with no feedback at the profile)."))
        silentEvents = registry.makeCounter(descriptor: Self.counter("silent_events", "Named events the current profile gives no feedback."))
        _ = service.subscribe { [weak self] event in
            guard case .powerTransition(let actuator, let transition, _, _, let elapsed, let budget) = event else { return }
            self?.countTransition(actuator: actuator, transition: transition, overran: elapsed > budget)
        }
    }

    /// A play request was accepted (`played`: it started a player).
    func triggered(_ played: Bool) {
        triggers.increment()
        if !played { silentEvents.increment() }
    }

    private func countTransition(actuator: String, transition: String, overran: Bool) {
        let key = actuator + "/" + transition
        let (counter, overrun) = lock.withLock { () -> (Counter, Counter) in
            let counter = transitionCounters[key] ?? registry.makeCounter(descriptor: Self.counter("power_transitions", "Power transitions made."), labels: [("actuator", actuator), ("transition", transition)])
            let overrun = overrunCounters[key] ?? registry.makeCounter(descriptor: Self.counter("power_transition_overruns", "Power transitions that took longer than their budget."), labels: [("actuator", actuator), ("transition", transition)])
            transitionCounters[key] = counter
            overrunCounters[key] = overrun
            return (counter, overrun)
        }
        counter.increment()
        if overran { overrun.increment() }
    }

    /// The exposition: the registry's metrics, brought up to date with the service's counters,
    /// then the lateness histogram and the gauges.
    func exposition(service: HapticService) -> String {
        syncCounters(service.counters)
        let metrics = service.scheduler.metrics
        var text = registry.emitToString()
        text += "# HELP hapticboard_dispatch_lateness_seconds How late the timing thread ran each action after its dispatch instant.\n"
        text += "# TYPE hapticboard_dispatch_lateness_seconds histogram\n"
        for bound in Self.latenessBounds {
            text += "hapticboard_dispatch_lateness_seconds_bucket{le=\"\(bound.secondsValue)\"} \(metrics.lateness.count(atOrBelow: bound))\n"
        }
        text += "hapticboard_dispatch_lateness_seconds_bucket{le=\"+Inf\"} \(metrics.lateness.count)\n"
        text += "hapticboard_dispatch_lateness_seconds_sum \(Double(metrics.lateness.sumNanoseconds) / 1e9)\n"
        text += "hapticboard_dispatch_lateness_seconds_count \(metrics.lateness.count)\n"
        text += gauge("hapticboard_players", "Players playing now.", Double(service.players.count))
        text += gauge("hapticboard_dropped_late_total", "Transients dropped for lateness and stream values skipped for newer ones.", Double(metrics.droppedLate + metrics.resynced), type: "counter")
        return text
    }

    private func gauge(_ name: String, _ help: String, _ value: Double, type: String = "gauge") -> String {
        "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(value)\n"
    }

    /// Counters only go up: each scrape adds what the service counted since the last one.
    private func syncCounters(_ counters: ServiceCounters) {
        let previous = lock.withLock { () -> ServiceCounters in
            defer { exported = counters }
            return exported
        }
        add(counters.triggers - previous.triggers, to: "players_started", "Players started.")
        add(counters.preemptions - previous.preemptions, to: "preemptions", "Players stopped by a request of higher priority.")
        add(counters.faults - previous.faults, to: "faults", "Faults (a bus error, a chip fault): the engine stopped on its own, or ended the players of the actuators that failed.")
        for code in ServiceError.Code.allCases {
            add((counters.refusals[code.rawValue] ?? 0) - (previous.refusals[code.rawValue] ?? 0), to: "requests_refused", "Requests refused, by reason code.", labels: [("code", code.rawValue)])
        }
    }

    /// Adds `amount` to the counter `hapticboard_<name>_total`.
    private func add(_ amount: Int, to name: String, _ help: String, labels: [(String, String)] = []) {
        // The registry hands back the same counter for the same name and labels.
        let descriptor = Self.counter(name, help)
        let counter = labels.isEmpty ? registry.makeCounter(descriptor: descriptor) : registry.makeCounter(descriptor: descriptor, labels: labels)
        if amount > 0 { counter.increment(by: Int64(amount)) }
    }

    /// A counter of hapticboard's: `hapticboard_<name>_total`.
    private static func counter(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "hapticboard", metricName: name, unitName: "total", helpText: help)
    }
}
