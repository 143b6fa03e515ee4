extension HapticEvent {
    /// Core Haptics plays a HapticContinuous event for at most 30 s.
    public static let continuousDurationLimit: Double = 30

    /// The longest HapticContinuous `EventDuration` the AHAP reader splits (one hour, 120 pieces);
    /// longer ones are refused so a hostile file cannot make the reader build millions of events.
    public static let longestSplittableDuration: Double = 3600

    /// This event as Core Haptics can play it: a HapticContinuous event longer than 30 s becomes
    /// consecutive events, every one 30 s long except the last, which takes the remainder.
    ///
    /// The rule, the same everywhere hapticboard meets such an event:
    /// - piece k starts at `time + 30·k`; all pieces carry the event's parameters;
    /// - so the joins are seamless, pieces after the first have `AttackTime` 0 and pieces before the
    ///   last have `ReleaseTime` 0 (where the event gives those parameters); the first piece keeps
    ///   the attack and the last keeps the release;
    /// - other event types, and events of 30 s or less, are returned unchanged;
    /// - so are events longer than any reader accepts (`HapticClip.longestDuration`, a day; the
    ///   AHAP reader stops at `longestSplittableDuration`): split, one of 1e26 s would need more
    ///   pieces than `Int` counts. The compiler cuts such an event at its longest program.
    ///
    /// Export tools (Lofelt, Meta Haptics Studio) split at 30 s the same way, so a file written by
    /// them and read here gives the same events.
    public func splitAtContinuousLimit() -> [HapticEvent] {
        let limit = Self.continuousDurationLimit
        guard type == .hapticContinuous, let duration, duration > limit, duration <= HapticClip.longestDuration else { return [self] }
        // Counted so that no piece is longer than the limit even when duration / limit rounds down.
        var pieceCount = Int((duration / limit).rounded(.up))
        while Double(pieceCount) * limit < duration { pieceCount += 1 }
        while pieceCount > 1 && Double(pieceCount - 1) * limit >= duration { pieceCount -= 1 }
        return (0..<pieceCount).map { index in
            let isFirst = index == 0
            let isLast = index == pieceCount - 1
            var piece = self
            piece.time = time + Double(index) * limit
            piece.duration = isLast ? duration - Double(pieceCount - 1) * limit : limit
            piece.parameters = parameters.map { parameter in
                if (parameter.id == .attackTime && !isFirst) || (parameter.id == .releaseTime && !isLast) {
                    return EventParameter(parameter.id, 0)
                }
                return parameter
            }
            return piece
        }
    }
}
