import ActuatorHAL

/// Numbers and sequencer steps as people read them in tables, warnings and listings: rounded to
/// the millisecond (or thousandth), without a trailing ".0".
enum CompactNumber {
    static func text(_ value: Double) -> String {
        guard value.isFinite else { return String(value) }
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        return String(rounded)
    }
}

extension Array where Element == SequencerStep {
    /// `2, wait 0.08 s, 1`.
    var summary: String {
        map { step in
            switch step {
            case .effect(let id): "\(id)"
            case .wait(let pause): "wait \(CompactNumber.text(pause.secondsValue)) s"
            }
        }.joined(separator: ", ")
    }
}
