/// Intensity and sharpness of what an actuator should render at one moment.
public struct DriveLevel: Sendable, Hashable {
    /// Strength, 0…1.
    public var intensity: Double
    /// Sharpness, 0…1.
    public var sharpness: Double

    /// Creates a level.
    public init(intensity: Double, sharpness: Double) {
        self.intensity = intensity
        self.sharpness = sharpness
    }

    /// Nothing to render.
    public static let silent = DriveLevel(intensity: 0, sharpness: 0.5)

    /// The mixing rule for overlapping events: intensities add and the sum is clamped to 1 — two
    /// events together feel stronger than either, as on a phone, and the clamp keeps the drive
    /// within the actuator's rating; sharpness is the intensity-weighted mean, so the stronger
    /// event dominates the feel (0.5 when everything is silent).
    public static func mix(_ levels: [DriveLevel]) -> DriveLevel {
        var mix = Mix()
        for level in levels { mix.add(level) }
        return mix.level
    }

    /// `mix`, one level at a time: a stream mixes at every sample, and gathering the levels into
    /// an array first cost an allocation per sample.
    struct Mix {
        private var total = 0.0
        private var weightedSharpness = 0.0
        /// How many levels were added, and the first: one level is `single(_:)`.
        private var count = 0
        private var first = DriveLevel.silent

        mutating func add(_ level: DriveLevel) {
            if count == 0 { first = level }
            count += 1
            total += level.intensity
            weightedSharpness += level.intensity * level.sharpness
        }

        /// The mix of every level added (silent when none was, or all were silent).
        var level: DriveLevel {
            if count == 1 { return Self.single(first) }
            guard total > 0 else { return .silent }
            return DriveLevel(intensity: min(1, total), sharpness: min(1, max(0, weightedSharpness / total)))
        }

        /// The mix of `level` alone: its sharpness kept as it is, where (intensity × sharpness) /
        /// intensity can differ from it in the last bit as the intensity moves — and a rendered
        /// stretch is skipped only where the sharpness does not move (`AmplitudeRenderer`).
        static func single(_ level: DriveLevel) -> DriveLevel {
            guard level.intensity > 0 else { return .silent }
            return DriveLevel(intensity: min(1, level.intensity), sharpness: min(1, max(0, level.sharpness)))
        }
    }
}
