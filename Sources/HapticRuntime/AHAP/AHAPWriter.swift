/// Writes a `HapticPattern` as AHAP text that `AHAP.read` turns back into the same pattern.
///
/// Keys come in a fixed order (`Version`, `Metadata` sorted by key, `Pattern`; within an event
/// `Time`, `EventType`, `EventDuration`, `EventParameters`, then the waveform keys), and pattern
/// elements are ordered by time — events, then dynamic parameters, then curves at equal times —
/// so the same pattern always gives the same bytes.
enum AHAPWriter {
    static func text(of pattern: HapticPattern) -> String {
        var top: [(key: String, value: JSONOutput)] = []
        if let version = pattern.version {
            top.append(("Version", number(version)))
        }
        if !pattern.metadata.isEmpty {
            let sorted = pattern.metadata.sorted { $0.key < $1.key }
            top.append(("Metadata", .object(sorted.map { (key: $0.key, value: .string($0.value)) })))
        }
        top.append(("Pattern", .array(elements(of: pattern))))
        return JSONOutput.object(top).rendered() + "\n"
    }

    private static func elements(of pattern: HapticPattern) -> [JSONOutput] {
        let timed: [(time: Double, element: JSONOutput)] =
            pattern.events.map { ($0.time, element("Event", event($0))) }
            + pattern.parameters.map { ($0.time, element("Parameter", parameter($0))) }
            + pattern.parameterCurves.map { ($0.time, element("ParameterCurve", curve($0))) }
        return timed.sortedByTimeKeepingOrder(\.time).map(\.element)
    }

    private static func element(_ kind: String, _ body: JSONOutput) -> JSONOutput {
        .object([(key: kind, value: body)])
    }

    private static func event(_ event: HapticEvent) -> JSONOutput {
        var members: [(key: String, value: JSONOutput)] = [
            ("Time", number(event.time)),
            ("EventType", .string(event.type.rawValue)),
        ]
        if let duration = event.duration {
            members.append(("EventDuration", number(duration)))
        }
        if !event.parameters.isEmpty {
            members.append(("EventParameters", .array(event.parameters.map {
                .object([("ParameterID", .string($0.id.rawValue)), ("ParameterValue", number($0.value))])
            })))
        }
        if let path = event.waveformPath {
            members.append(("EventWaveformPath", .string(path)))
        }
        if let flag = event.waveformUsesVolumeEnvelope {
            members.append(("EventWaveformUseVolumeEnvelope", .bool(flag)))
        }
        if let flag = event.waveformLoopEnabled {
            members.append(("EventWaveformLoopEnabled", .bool(flag)))
        }
        return .object(members)
    }

    private static func parameter(_ parameter: DynamicParameter) -> JSONOutput {
        .object([
            ("ParameterID", .string(parameter.id.rawValue)),
            ("Time", number(parameter.time)),
            ("ParameterValue", number(parameter.value)),
        ])
    }

    private static func curve(_ curve: ParameterCurve) -> JSONOutput {
        .object([
            ("ParameterID", .string(curve.id.rawValue)),
            ("Time", number(curve.time)),
            ("ParameterCurveControlPoints", .array(curve.controlPoints.map {
                .object([("Time", number($0.time)), ("ParameterValue", number($0.value))])
            })),
        ])
    }

    private static func number(_ value: Double) -> JSONOutput {
        .number(AHAPNumberFormat.text(value))
    }
}
