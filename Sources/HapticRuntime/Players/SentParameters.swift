/// Dynamic parameters and curves a player was sent while playing, kept apart from the pattern's
/// own so that a loop can carry them into its next pass: a value sent during a looping rumble
/// stays in force when the loop restarts, as it does in Core Haptics.
struct SentParameters: Sendable {
    private(set) var parameters: [DynamicParameter] = []
    private(set) var curves: [ParameterCurve] = []

    var isEmpty: Bool { parameters.isEmpty && curves.isEmpty }

    mutating func add(_ parameter: DynamicParameter) {
        parameters.append(parameter)
    }

    mutating func add(_ curve: ParameterCurve) {
        curves.append(curve)
    }

    /// `pattern` with these sources added.
    func applied(to pattern: HapticPattern) -> HapticPattern {
        var pattern = pattern
        pattern.parameters += parameters
        pattern.parameterCurves += curves
        return pattern
    }

    /// Keeps only what is heard from `time` on: sources starting after it, and for each id the
    /// source in force at `time` — a curve still running as it is, anything else as its value held
    /// from 0. A player sent a value every frame (a game's engine note at 60 Hz) would otherwise
    /// keep every value it was ever sent and compile them all on each send, at a cost growing with
    /// the minutes played. Held from 0, the latest value is what a seek back or a restart plays
    /// with, as a dynamic parameter is in Core Haptics: a live control, not part of the pattern.
    mutating func forget(before time: Double) {
        let (held, running) = inForce(at: time)
        parameters = parameters.filter { $0.time > time } + held
        curves = curves.filter { $0.time > time } + running
    }

    /// Moves everything to the next pass of a loop `length` seconds long. For each id, the source
    /// in force at `length` continues from 0 — a curve still running keeps running, anything else
    /// becomes its value held from 0; sources starting after `length` move back by `length`.
    mutating func carryOver(loopLength length: Double) {
        let (held, running) = inForce(at: length)
        parameters = parameters.filter { $0.time > length }.map { DynamicParameter($0.id, value: $0.value, time: $0.time - length) } + held
        curves = (curves.filter { $0.time > length } + running).map { ParameterCurve($0.id, time: $0.time - length, controlPoints: $0.controlPoints) }
    }

    /// For each id with a source at or before `time`, the one in force there (the latest to start;
    /// at equal starts a curve, then the later sent, as `ControlTimeline` orders them): a curve
    /// still running at `time` as it is; otherwise its value at `time`, held from 0.
    private func inForce(at time: Double) -> (held: [DynamicParameter], running: [ParameterCurve]) {
        var latest: [DynamicParameterID: (start: Double, rank: Int, curve: ParameterCurve?)] = [:]
        func consider(_ id: DynamicParameterID, _ start: Double, _ rank: Int, _ curve: ParameterCurve?) {
            guard start <= time else { return }
            if let known = latest[id], (known.start, known.rank) > (start, rank) { return }
            latest[id] = (start, rank, curve)
        }
        for parameter in parameters { consider(parameter.id, parameter.time, 0, nil) }
        for curve in curves where !curve.controlPoints.isEmpty { consider(curve.id, curve.time, 1, curve) }
        let timeline = ControlTimeline(parameters: parameters, curves: curves)
        var held: [DynamicParameter] = []
        var running: [ParameterCurve] = []
        for id in latest.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            if let curve = latest[id]?.curve, curve.time + (curve.controlPoints.map(\.time).max() ?? 0) > time {
                running.append(curve)
            } else {
                held.append(DynamicParameter(id, value: timeline.value(of: id, at: time), time: 0))
            }
        }
        return (held, running)
    }
}
