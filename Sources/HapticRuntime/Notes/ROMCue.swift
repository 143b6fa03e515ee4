import ActuatorHAL

/// ROM effects standing in for a group of events on a chip with a waveform library.
///
/// Note lists know which DRV2605 effects a note should play (a designed "Double Click" beats two
/// synthesised taps), but the pattern must still play elsewhere. So the note's events stay in the
/// pattern as usual and each carries the same cue: the compiler, on a chip with a library, triggers
/// the cue once at the group's first event and skips the group's events; anywhere else it ignores
/// the cue. Cues are not part of AHAP and are not written out.
public struct ROMCue: Sendable, Hashable {
    /// Events carrying the same group number form one cue.
    public var group: Int
    /// Sequencer steps for the LRA library (LIBRARY_SEL 6).
    public var lraSteps: [SequencerStep]
    /// Sequencer steps for the ERM libraries (A–F).
    public var ermSteps: [SequencerStep]
    /// How long the chip is busy with the steps, in seconds (an estimate: TI publishes no
    /// per-effect durations).
    public var duration: Double

    /// Creates a cue.
    public init(group: Int, lraSteps: [SequencerStep], ermSteps: [SequencerStep], duration: Double) {
        self.group = group
        self.lraSteps = lraSteps
        self.ermSteps = ermSteps
        self.duration = duration
    }

    /// The steps to play with `library`; nil for the empty library.
    public func steps(for library: ROMLibrary) -> [SequencerStep]? {
        switch library {
        case .empty: nil
        case .lra: lraSteps
        case .ermA, .ermB, .ermC, .ermD, .ermE, .ermF: ermSteps
        }
    }
}
