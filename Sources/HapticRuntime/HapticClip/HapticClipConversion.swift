/// A `HapticClip` made from a pattern, with what the clip could not carry.
public struct HapticClipConversion: Sendable, Hashable {
    public var clip: HapticClip
    /// One line per kind of loss (audio events left out, envelope parameters sampled, overlapping
    /// events summed and clamped, …); empty when the clip carries the pattern whole.
    public var losses: [String]

    /// The losses as one warning, or nil when there are none.
    public var warning: String? {
        losses.isEmpty ? nil : ".haptic cannot carry everything of this pattern: " + losses.joined(separator: "; ")
    }
}
