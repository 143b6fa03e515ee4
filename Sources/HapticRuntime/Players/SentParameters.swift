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

    /// Moves everything to the next pass of a loop `length` seconds long. For each id, the source
    /// in force at `length` continues from 0 — a curve still running keeps running, anything else
    /// becomes its value held from 0; sources starting after `length` move back by `length`.
    mutating func carryOver(loopLength length: Double) {
        let timeline = ControlTimeline(parameters: parameters, curves: curves)
        var nextParameters = parameters.filter { $0.time > length }.map { DynamicParameter($0.id, value: $0.value, time: $0.time - length) }
        var nextCurves = curves.filter { $0.time > length }.map { ParameterCurve($0.id, time: $0.time - length, controlPoints: $0.controlPoints) }
        let ids = Set(parameters.map(\.id) + curves.map(\.id))
        for id in ids.sorted(by: { $0.rawValue < $1.rawValue }) {
            let latestParameter = parameters.filter { $0.id == id && $0.time <= length }.map(\.time).max()
            let runningCurve = curves.last { curve in
                guard curve.id == id, curve.time <= length, curve.time >= (latestParameter ?? -.infinity) else { return false }
                return curve.time + (curve.controlPoints.map(\.time).max() ?? 0) > length
            }
            if let runningCurve {
                nextCurves.append(ParameterCurve(id, time: runningCurve.time - length, controlPoints: runningCurve.controlPoints))
            } else if latestParameter != nil || curves.contains(where: { $0.id == id && $0.time <= length }) {
                nextParameters.append(DynamicParameter(id, value: timeline.value(of: id, at: length), time: 0))
            }
        }
        parameters = nextParameters
        curves = nextCurves
    }
}
