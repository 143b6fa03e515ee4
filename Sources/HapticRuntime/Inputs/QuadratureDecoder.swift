import ActuatorHAL

/// Decodes a quadrature rotary encoder's two lines (A and B) into detents with a direction.
///
/// Every valid transition of the two-bit Gray code moves a position by one quarter step, forward
/// when A leads B (clockwise on the usual EC11 wiring); a detent is `transitionsPerDetent` of them
/// (4 on encoders with one full cycle per click, 2 or 1 on others). Contact bounce on one line
/// moves the position back and forth and cancels out, so encoders need no debounce. An edge that
/// leaves its line at the level it already had means the opposite edge was lost (the kernel's
/// event buffer overflowed): it is counted in `missedEdges`, not guessed at.
public struct QuadratureDecoder: Sendable, Hashable {
    /// Quarter steps per index `old << 2 | new`, where a state is `A << 1 | B`.
    private static let steps: [Int8] = [0, -1, 1, 0, 1, 0, 0, -1, -1, 0, 0, 1, 0, 1, -1, 0]

    public let transitionsPerDetent: Int
    private var state: UInt8
    private var position = 0
    /// Edges that repeated their line's level (the edge before was lost), since the start.
    public private(set) var missedEdges = 0

    public init(a: LineLevel, b: LineLevel, transitionsPerDetent: Int = 4) {
        self.transitionsPerDetent = max(1, transitionsPerDetent)
        state = Self.state(a: a, b: b)
    }

    private static func state(a: LineLevel, b: LineLevel) -> UInt8 {
        (a.isHigh ? 2 : 0) | (b.isHigh ? 1 : 0)
    }

    /// The levels now on A and B.
    public var levels: (a: LineLevel, b: LineLevel) {
        (LineLevel(state & 2 != 0), LineLevel(state & 1 != 0))
    }

    /// Takes line A's new level: +1 for a detent forward, −1 backward, 0 for none.
    public mutating func updateA(_ level: LineLevel) -> Int {
        move(to: (state & 1) | (level.isHigh ? 2 : 0))
    }

    /// Takes line B's new level: +1 for a detent forward, −1 backward, 0 for none.
    public mutating func updateB(_ level: LineLevel) -> Int {
        move(to: (state & 2) | (level.isHigh ? 1 : 0))
    }

    private mutating func move(to next: UInt8) -> Int {
        defer { state = next }
        guard next != state else {
            missedEdges += 1
            return 0
        }
        let step = Int(Self.steps[Int(state << 2 | next)])
        position += step
        if position >= transitionsPerDetent {
            position -= transitionsPerDetent
            return 1
        }
        if position <= -transitionsPerDetent {
            position += transitionsPerDetent
            return -1
        }
        return 0
    }
}
