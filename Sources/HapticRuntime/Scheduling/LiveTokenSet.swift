/// The sequences of the scheduler's live commands: an open-addressing hash set of `UInt64`.
///
/// `Set<ScheduledToken>` hashed every token with the standard library's seeded SipHash, built to
/// resist keys chosen by an attacker; about 150 instructions a lookup, and a scheduled command is
/// inserted, claimed and often looked up once more, so a stream paid it several times per sample
/// and an `EV_FF` play a dozen times before its first write. The keys here are sequence numbers
/// the scheduler hands out itself, so a multiplicative (Fibonacci) hash spreads them as well:
/// consecutive sequences land in slots far apart. Linear probing with backward-shift deletion
/// keeps no tombstones, so a long run of inserts and removals never degrades the probes; the
/// table grows (doubling) only when more than half full, so with the storage reserved up front a
/// stream never allocates.
struct LiveTokenSet {
    /// Marks an empty slot: `PendingCommands` counts sequences up from 0 and never reaches it.
    private static let empty = UInt64.max
    /// 2⁶⁴ ÷ the golden ratio, odd: multiplying by it and keeping the top bits scatters
    /// consecutive keys across the table.
    private static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15

    private var slots: [UInt64]
    /// log₂ of `slots.count`.
    private var bits: Int
    private(set) var count = 0

    /// A set with room for `minimumCapacity` sequences before it grows.
    init(minimumCapacity: Int = 0) {
        bits = 3
        while (1 << bits) / 2 < minimumCapacity { bits += 1 }
        slots = [UInt64](repeating: Self.empty, count: 1 << bits)
    }

    var isEmpty: Bool { count == 0 }

    func contains(_ sequence: UInt64) -> Bool {
        slots.withUnsafeBufferPointer { table in
            var index = home(of: sequence)
            while table[index] != Self.empty {
                if table[index] == sequence { return true }
                index = (index + 1) & (table.count - 1)
            }
            return false
        }
    }

    /// Adds `sequence`; false when it was there already.
    @discardableResult
    mutating func insert(_ sequence: UInt64) -> Bool {
        precondition(sequence != Self.empty, "LiveTokenSet: \(sequence) marks an empty slot")
        if (count + 1) * 2 > slots.count { grow() }
        let home = home(of: sequence)
        let added = slots.withUnsafeMutableBufferPointer { table in
            var index = home
            while table[index] != Self.empty {
                if table[index] == sequence { return false }
                index = (index + 1) & (table.count - 1)
            }
            table[index] = sequence
            return true
        }
        if added { count += 1 }
        return added
    }

    /// Removes `sequence`; false when it was not there.
    @discardableResult
    mutating func remove(_ sequence: UInt64) -> Bool {
        guard sequence != Self.empty else { return false }
        let home = home(of: sequence)
        let bits = bits
        let removed = slots.withUnsafeMutableBufferPointer { table in
            let mask = table.count - 1
            var hole = home
            while table[hole] != sequence {
                if table[hole] == Self.empty { return false }
                hole = (hole + 1) & mask
            }
            // Backward-shift deletion: later members of the probe run move into the hole when their
            // home slot does not lie (cyclically) after it, so every member stays reachable from its
            // home without a tombstone.
            var next = (hole + 1) & mask
            while table[next] != Self.empty {
                let nextHome = Self.home(of: table[next], bits: bits)
                if (next - nextHome) & mask >= (next - hole) & mask {
                    table[hole] = table[next]
                    hole = next
                }
                next = (next + 1) & mask
            }
            table[hole] = Self.empty
            return true
        }
        if removed { count -= 1 }
        return removed
    }

    /// Empties the set; its storage is kept.
    mutating func removeAll() {
        guard count > 0 else { return }
        slots.withUnsafeMutableBufferPointer { table in table.update(repeating: Self.empty) }
        count = 0
    }

    private func home(of sequence: UInt64) -> Int {
        Self.home(of: sequence, bits: bits)
    }

    private static func home(of sequence: UInt64, bits: Int) -> Int {
        Int(truncatingIfNeeded: (sequence &* multiplier) >> UInt64(64 - bits))
    }

    private mutating func grow() {
        let members = slots.filter { $0 != Self.empty }
        bits += 1
        slots = [UInt64](repeating: Self.empty, count: 1 << bits)
        count = 0
        for member in members { insert(member) }
    }
}
