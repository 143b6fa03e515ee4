/// A `.haptic` v1 clip, the format of Meta Haptics Studio, Lofelt Studio, the Meta Haptics SDK and
/// Nice Vibrations: one continuous signal described by an amplitude envelope (with optional
/// emphasis on its breakpoints) and an optional frequency envelope. Values are 0…1, times seconds.
///
/// Read with ``read(text:file:)`` / ``read(contentsOf:)`` (validated as Meta's validator does in its
/// legacy-compatibility mode), played through ``pattern`` (Meta's mapping to Core Haptics), written
/// with ``text``, made from a pattern with ``init(converting:)`` and from a sound by `SoundAnalyzer`.
public struct HapticClip: Sendable, Hashable {
    /// The only major version there is; files with another major version are refused.
    public static let supportedMajorVersion = 1

    /// The longest clip the reader accepts, in seconds: a day. A clip plays as one continuous event
    /// split into 30 s pieces (2,880 for a day); without a bound a file of two breakpoints could ask
    /// for more pieces than memory holds. Haptics made from a sound of an hour or more stay well
    /// inside it.
    public static let longestDuration: Double = 86_400

    public var version: HapticClipVersion
    public var metadata: HapticClipMetadata
    /// The amplitude envelope, times not decreasing; the clip lasts until its last breakpoint.
    public var amplitude: [AmplitudeBreakpoint]
    /// The frequency envelope, when the clip has one.
    public var frequency: [FrequencyBreakpoint]?

    /// A clip of the given envelopes, version 1.0.0.
    public init(
        version: HapticClipVersion = HapticClipVersion(major: 1, minor: 0, patch: 0),
        metadata: HapticClipMetadata = HapticClipMetadata(),
        amplitude: [AmplitudeBreakpoint],
        frequency: [FrequencyBreakpoint]? = nil
    ) {
        self.version = version
        self.metadata = metadata
        self.amplitude = amplitude
        self.frequency = frequency
    }

    /// Seconds: the time of the last amplitude breakpoint (Meta's definition).
    public var duration: Double { amplitude.last?.time ?? 0 }

    /// The amplitude breakpoints that carry an emphasis.
    public var emphasisCount: Int { amplitude.count { $0.emphasis != nil } }
}

/// `version` of a `.haptic` file.
public struct HapticClipVersion: Sendable, Hashable, CustomStringConvertible {
    public var major: Int
    public var minor: Int
    public var patch: Int

    public init(major: Int, minor: Int, patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// `1.0.0`.
    public var description: String { "\(major).\(minor).\(patch)" }
}

/// `metadata` of a `.haptic` file: every key optional, empty when absent.
public struct HapticClipMetadata: Sendable, Hashable {
    /// The tool that made the clip.
    public var editor: String
    public var author: String
    /// What the clip was made from, e.g. the sound file analysed.
    public var source: String
    public var project: String
    public var tags: [String]
    public var description: String

    public init(editor: String = "", author: String = "", source: String = "", project: String = "", tags: [String] = [], description: String = "") {
        self.editor = editor
        self.author = author
        self.source = source
        self.project = project
        self.tags = tags
        self.description = description
    }

    /// Whether every field is empty (the writer then leaves `metadata` out).
    public var isEmpty: Bool { self == HapticClipMetadata() }
}

/// One breakpoint of the amplitude envelope; the envelope is linear between breakpoints.
public struct AmplitudeBreakpoint: Sendable, Hashable {
    public var time: Double
    /// 0…1.
    public var amplitude: Double
    /// A short, strong click at this time, over the continuous signal.
    public var emphasis: Emphasis?

    public init(time: Double, amplitude: Double, emphasis: Emphasis? = nil) {
        self.time = time
        self.amplitude = amplitude
        self.emphasis = emphasis
    }
}

/// The click an amplitude breakpoint can carry: its strength and its sharpness, 0…1 each; its
/// amplitude is at least the breakpoint's.
public struct Emphasis: Sendable, Hashable {
    public var amplitude: Double
    public var frequency: Double

    public init(amplitude: Double, frequency: Double) {
        self.amplitude = amplitude
        self.frequency = frequency
    }
}

/// One breakpoint of the frequency envelope: 0 the actuator's lowest usable frequency, 1 its highest.
public struct FrequencyBreakpoint: Sendable, Hashable {
    public var time: Double
    /// 0…1.
    public var frequency: Double

    public init(time: Double, frequency: Double) {
        self.time = time
        self.frequency = frequency
    }
}
