/// Why sequencer steps cannot be loaded into WAV_FRM_SEQ1..8.
public enum DRV2605SequenceError: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    /// The sequencer has eight slots.
    case tooManySteps(Int)
    /// ROM effect ids are 1–123.
    case effectOutOfRange(slot: Int, id: UInt8)
    /// Waits are 10–1270 ms.
    case waitOutOfRange(slot: Int, Duration)
    /// Waits are whole multiples of 10 ms.
    case waitNotMultipleOfTenMilliseconds(slot: Int, Duration)

    public var description: String {
        switch self {
        case .empty:
            return "the sequence has no steps"
        case .tooManySteps(let count):
            return "\(count) steps, but the sequencer has \(DRV2605Sequence.slotCount) slots"
        case .effectOutOfRange(let slot, let id):
            return "slot \(slot): effect \(id) is not a ROM effect id (1–123)"
        case .waitOutOfRange(let slot, let wait):
            return "slot \(slot): wait \(wait) is outside 10–1270 ms"
        case .waitNotMultipleOfTenMilliseconds(let slot, let wait):
            return "slot \(slot): wait \(wait) is not a multiple of 10 ms"
        }
    }
}

/// Validated contents of the eight sequencer slots: bit 7 set = wait in 10 ms units, otherwise a
/// ROM effect id; a 0 byte ends playback.
public struct DRV2605Sequence: Sendable, Hashable {
    /// WAV_FRM_SEQ1..8.
    public static let slotCount = 8
    /// The wait step the WAIT bit counts in.
    public static let waitUnit = Duration.milliseconds(10)

    /// One byte per step (at most eight, no terminator).
    public let bytes: [UInt8]

    /// Validates `steps`; slots are numbered from 1 in errors, as in WAV_FRM_SEQ1.
    public init(_ steps: [SequencerStep]) throws(DRV2605SequenceError) {
        guard !steps.isEmpty else { throw .empty }
        guard steps.count <= Self.slotCount else { throw .tooManySteps(steps.count) }
        var bytes: [UInt8] = []
        for (index, step) in steps.enumerated() {
            let slot = index + 1
            switch step {
            case .effect(let id):
                guard ROMLibrary.effectIDs.contains(id) else { throw .effectOutOfRange(slot: slot, id: id) }
                bytes.append(id)
            case .wait(let wait):
                let units = wait.nanoseconds / Self.waitUnit.nanoseconds
                guard wait.nanoseconds % Self.waitUnit.nanoseconds == 0 else { throw .waitNotMultipleOfTenMilliseconds(slot: slot, wait) }
                guard (1...Int64(DRV2605Field.effectOrWait.maximum)).contains(units) else { throw .waitOutOfRange(slot: slot, wait) }
                bytes.append(DRV2605Field.waitFlag.encode(1) | UInt8(units))
            }
        }
        self.bytes = bytes
    }

    /// Validates `steps`, reporting a problem as the driver's error.
    public static func validated(_ steps: [SequencerStep]) throws(DRV2605Error) -> DRV2605Sequence {
        do { return try DRV2605Sequence(steps) } catch { throw .invalidSequence(error) }
    }

    /// What loading this sequence writes from WAV_FRM_SEQ1 on, in one transaction
    /// (`DRV2605.load(_:)`): every step, then a 0 terminator when slots remain. The register
    /// pointer advances after each byte and WAV_FRM_SEQ1–8 are consecutive, so a click's load is
    /// one transaction (the chip's address, WAV_FRM_SEQ1's, the effect, the terminator), not two
    /// (address, register, value each): at 100 kHz, a Raspberry Pi's default, 380 µs of bus
    /// before GO instead of 580.
    public var slotValues: [UInt8] {
        bytes.count < Self.slotCount ? bytes + [0] : bytes
    }

    /// The sequencer slots a load writes: the steps and the terminating slot when slots remain.
    public static func slotsLoaded(steps: Int) -> Int { min(steps + 1, slotCount) }
}
