/// What a board file says about an actuator driven as audio (`compatible: pcm-actuator`).
public struct PCMActuatorConfiguration: Sendable, Hashable {
    /// LRA (driven at resonance) or voice coil (wide band); not ERM, which needs DC.
    public var kind: ActuatorKind
    /// The device's stream: rate, channel count and period size.
    public var format: PCMFormat
    /// The channels carrying this actuator's drive.
    public var channelMap: PCMChannelMap
    /// Resonant frequency in hertz (an LRA's f₀; a voice coil's mechanical resonance, if known).
    public var resonantFrequency: Double?
    /// Full-scale fraction the drive may reach, 0…1: with an amplifier's gain fixed, this caps the
    /// voltage across the coil at its rating (e.g. 0.5 when full scale would give twice the rated voltage).
    public var maximumAmplitude: Double

    /// A configuration; `maximumAmplitude` is clamped to 0…1.
    public init(kind: ActuatorKind, format: PCMFormat, channelMap: PCMChannelMap, resonantFrequency: Double?, maximumAmplitude: Double) {
        self.kind = kind
        self.format = format
        self.channelMap = channelMap
        self.resonantFrequency = resonantFrequency
        self.maximumAmplitude = maximumAmplitude.isNaN ? 0 : min(1, max(0, maximumAmplitude))
    }

    /// The capabilities the compiler sees. An LRA is locked to resonance (it barely moves off it),
    /// so sharpness shades its strength; a voice coil's frequency is free, so sharpness sets it.
    public var capabilities: ActuatorCapabilities {
        ActuatorCapabilities(
            kind: kind,
            romLibrary: nil,
            supportsRealtimeAmplitude: false,
            supportsSignedAmplitude: false,
            supportsPCM: true,
            resonantFrequency: resonantFrequency,
            frequencyAdjustable: kind == .voiceCoil,
            amplitudeUpdateCost: .zero,
            maximumContinuousDrive: nil
        )
    }
}
