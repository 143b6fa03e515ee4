/// Where a statement starts, so evaluation limits can point at it.
struct NotationPosition: Sendable, Hashable {
    var line: Int
    var column: Int
}

/// A parsed notation statement. References carry the body of their definition, resolved by the parser,
/// so evaluation needs no name lookup and a definition can never reach itself.
indirect enum NotationStatement: Sendable, Hashable {
    case transient(intensity: Double, sharpness: Double, at: NotationPosition)
    /// A rest: advances time at the top level; inside `sequence`/`loop` it only keeps its slot.
    case rest(seconds: Double, at: NotationPosition)
    case continuous(ContinuousBlock, at: NotationPosition)
    case sequence(interval: Double, items: [NotationStatement], at: NotationPosition)
    case loop(count: Int, interval: Double, items: [NotationStatement], at: NotationPosition)
    case ramp(RampBlock, at: NotationPosition)
    case reference(name: String, body: [NotationStatement], at: NotationPosition)

    var position: NotationPosition {
        switch self {
        case .transient(_, _, let at), .rest(_, let at), .continuous(_, let at), .sequence(_, _, let at),
             .loop(_, _, _, let at), .ramp(_, let at), .reference(_, _, let at):
            at
        }
    }
}

/// `continuous D:` and its properties.
struct ContinuousBlock: Sendable, Hashable {
    var duration: Double
    var intensity = 0.5
    var sharpness = 0.5
    var envelope: ADSREnvelope?
}

/// `adsr: a, d, s, r`: attack, decay and release are fractions of the event's duration, sustain a level.
struct ADSREnvelope: Sendable, Hashable {
    var attack: Double
    var decay: Double
    var sustain: Double
    var release: Double
}

/// `ramp D:` and its properties, with the defaults the seed gives.
struct RampBlock: Sendable, Hashable {
    var duration: Double
    var intensity: RampTransition = .init(from: 0.5, to: 0.5)
    var sharpness: RampTransition = .init(from: 0.5, to: 0.5)
    var interval: RampTransition = .init(from: 0.1, to: 0.1)
    var curve: RampCurve = .linear
}

/// `from > to` in a ramp property.
struct RampTransition: Sendable, Hashable {
    var from: Double
    var to: Double

    func value(at progress: Double) -> Double { from + (to - from) * progress }
}
