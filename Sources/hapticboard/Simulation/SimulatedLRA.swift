import ActuatorHAL
import HardwareMocks

/// The resonator the command uses to show what a hand would feel from a simulated chip's drive.
enum SimulatedLRA {
    /// Q of a typical coin LRA: the envelope time constant at 175 Hz is Q/(π·f₀) ≈ 18 ms, in line
    /// with the 20–40 ms rise times LRA datasheets give without overdrive (an estimate).
    static let qualityFactor = 10.0

    /// Integration rate; a little over 20 steps per cycle even at 300 Hz.
    static let stepRate = 8_000.0

    /// A model resonant at `frequency` (175 Hz when the board gives none).
    static func model(resonantFrequency frequency: Double?) throws(LRAModelError) -> LRAModel {
        let f0 = frequency ?? 175
        return try LRAModel(resonantFrequency: f0, qualityFactor: qualityFactor, ratedAcceleration: 1, stepRate: max(stepRate, LRAModel.minimumStepsPerCycle * f0))
    }
}
