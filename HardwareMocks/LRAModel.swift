import ActuatorHAL
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A linear resonant actuator as a damped harmonic resonator: a mass on a spring, resonant at
/// `resonantFrequency` with quality factor `qualityFactor`, pushed by the driver's force.
///
///     x″ + (ω₀/Q)·x′ + ω₀²·x = g·u(t),   acceleration = x″
///
/// with u the drive (−1…1 of full scale) and g = `ratedAcceleration`/Q, so that full-scale drive at
/// resonance settles at `ratedAcceleration` (an LRA datasheet's "acceleration at rated voltage").
/// The envelope builds and rings down with time constant τ = 2Q/ω₀ = Q/(π·f₀).
///
/// Integration is classic fourth-order Runge–Kutta at `stepRate` with the drive sampled at half
/// steps; drive content above `stepRate / 2` is not represented.
public struct LRAModel: Sendable, Hashable {
    /// f₀ in hertz.
    public let resonantFrequency: Double
    /// Q: resonance sharpness; the −3 dB bandwidth is f₀/Q.
    public let qualityFactor: Double
    /// Steady-state peak acceleration for full-scale drive at resonance.
    public let ratedAcceleration: Double
    /// Integration steps per second; also the output sample rate.
    public let stepRate: Double

    /// Fewest integration steps per resonant cycle for the RK4 phase error to stay far below the
    /// resonance width (about 1e-5 of a cycle per cycle at 20).
    public static let minimumStepsPerCycle = 20.0

    /// A resonator; Q must exceed 0.5 (underdamped, so it rings) and `stepRate` must give at least
    /// `minimumStepsPerCycle` steps per resonant cycle.
    public init(resonantFrequency: Double, qualityFactor: Double, ratedAcceleration: Double = 1, stepRate: Double = 20_000) throws(LRAModelError) {
        guard resonantFrequency.isFinite, resonantFrequency > 0 else {
            throw .invalidParameter("resonant frequency", value: resonantFrequency, requirement: "a positive number of hertz")
        }
        guard qualityFactor.isFinite, qualityFactor > 0.5 else {
            throw .invalidParameter("quality factor", value: qualityFactor, requirement: "above 0.5 (an underdamped resonator)")
        }
        guard ratedAcceleration.isFinite, ratedAcceleration > 0 else {
            throw .invalidParameter("rated acceleration", value: ratedAcceleration, requirement: "positive")
        }
        guard stepRate.isFinite, stepRate >= Self.minimumStepsPerCycle * resonantFrequency else {
            throw .invalidParameter("step rate", value: stepRate, requirement: "at least \(Self.minimumStepsPerCycle) × the resonant frequency")
        }
        self.resonantFrequency = resonantFrequency
        self.qualityFactor = qualityFactor
        self.ratedAcceleration = ratedAcceleration
        self.stepRate = stepRate
    }

    /// τ = Q/(π·f₀): the envelope rises as 1 − e^(−t/τ) under resonant drive and falls as e^(−t/τ)
    /// when the drive stops.
    public var envelopeTimeConstant: Duration {
        .nanoseconds(Int64((qualityFactor / (Double.pi * resonantFrequency) * 1e9).rounded()))
    }

    /// The analytic steady-state peak acceleration for full-scale sinusoidal drive at `frequency`.
    public func steadyStateAmplitude(atFrequency frequency: Double) -> Double {
        let omega0 = 2 * Double.pi * resonantFrequency
        let omega = 2 * Double.pi * frequency
        let detuning = omega0 * omega0 - omega * omega
        let damping = omega0 * omega / qualityFactor
        return forceGain * omega * omega / (detuning * detuning + damping * damping).squareRoot()
    }

    /// The acceleration from `start` to `end` under `timeline`: each change holds amplitude × sin at
    /// its frequency, or at `resonantFrequency` when the frequency is `nil` (a driver's closed loop
    /// tracking resonance). The drive's phase runs on continuously across changes, as a driver's
    /// oscillator does; a negative amplitude is drive in antiphase, i.e. braking.
    public func response(to timeline: DriveTimeline, from start: MonotonicInstant, to end: MonotonicInstant) -> AccelerationTrace {
        let steps = stepCount(for: end - start)
        let halfStep = 0.5 / stepRate
        var phase = 0.0
        let drive = (0...(2 * steps)).map { index in
            let time = start + .nanoseconds(Int64((Double(index) * halfStep * 1e9).rounded()))
            let level = timeline.level(at: time)
            defer {
                phase = (phase + 2 * Double.pi * (level.frequency ?? resonantFrequency) * halfStep)
                    .truncatingRemainder(dividingBy: 2 * Double.pi)
            }
            return level.amplitude * sin(phase)
        }
        return integrate(drive: drive, steps: steps, start: start)
    }

    /// The acceleration under a sampled drive waveform (−1…1 at `sampleRate`, e.g. one channel of a
    /// `PCMCaptureSink`), linearly interpolated, starting at `start` and running `silence` past
    /// the last sample so the ring-down shows.
    public func response(toPCM samples: [Double], sampleRate: Double, start: MonotonicInstant = .zero, followedBy silence: Duration = .zero) -> AccelerationTrace {
        guard sampleRate.isFinite, sampleRate > 0 else { return AccelerationTrace(start: start, sampleRate: stepRate, samples: []) }
        let steps = stepCount(for: .nanoseconds(Int64(Double(samples.count) / sampleRate * 1e9)) + silence)
        let drive = (0...(2 * steps)).map { index -> Double in
            let position = Double(index) * 0.5 / stepRate * sampleRate
            let before = Int(position)
            guard before < samples.count else { return 0 }
            let after = before + 1 < samples.count ? samples[before + 1] : 0
            let fraction = position - Double(before)
            return samples[before] * (1 - fraction) + after * fraction
        }
        return integrate(drive: drive, steps: steps, start: start)
    }

    /// g in x″ + (ω₀/Q)·x′ + ω₀²·x = g·u: scaled so that full drive at resonance gives `ratedAcceleration`.
    private var forceGain: Double { ratedAcceleration / qualityFactor }

    private func stepCount(for duration: Duration) -> Int {
        max(0, Int((duration.secondsValue * stepRate).rounded()))
    }

    /// RK4 over `steps` steps from rest; `drive` holds u at every half step (2·steps + 1 values).
    private func integrate(drive: [Double], steps: Int, start: MonotonicInstant) -> AccelerationTrace {
        let omega0 = 2 * Double.pi * resonantFrequency
        let stiffness = omega0 * omega0
        let damping = omega0 / qualityFactor
        let gain = forceGain
        let step = 1 / stepRate
        func acceleration(_ position: Double, _ velocity: Double, _ force: Double) -> Double {
            gain * force - damping * velocity - stiffness * position
        }
        var position = 0.0
        var velocity = 0.0
        var output = [Double]()
        output.reserveCapacity(steps)
        for index in 0..<steps {
            let (now, middle, next) = (drive[2 * index], drive[2 * index + 1], drive[2 * index + 2])
            let a1 = acceleration(position, velocity, now)
            output.append(a1)
            let v1 = velocity
            let a2 = acceleration(position + step / 2 * v1, velocity + step / 2 * a1, middle)
            let v2 = velocity + step / 2 * a1
            let a3 = acceleration(position + step / 2 * v2, velocity + step / 2 * a2, middle)
            let v3 = velocity + step / 2 * a2
            let a4 = acceleration(position + step * v3, velocity + step * a3, next)
            let v4 = velocity + step * a3
            position += step / 6 * (v1 + 2 * v2 + 2 * v3 + v4)
            velocity += step / 6 * (a1 + 2 * a2 + 2 * a3 + a4)
        }
        return AccelerationTrace(start: start, sampleRate: stepRate, samples: output)
    }
}
