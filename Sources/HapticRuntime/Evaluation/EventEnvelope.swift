/// The amplitude envelope of a continuous event, as a gain 0…1 over the event's local time.
///
/// Core Haptics documents AttackTime, DecayTime and ReleaseTime as 0–1 values on an "exponential"
/// scale without publishing the mapping, so hapticboard reads each value as seconds (0–1 s). The
/// shape is the minimum of three straight lines, which keeps every sample checkable by hand:
/// - attack: rises linearly from 0 at the event start to 1 after `attack` seconds;
/// - release: falls linearly to 0 at the event end, starting `release` seconds before it;
/// - decay (only when not sustained): after the attack, falls linearly from 1 to 0 over `decay`
///   seconds and stays at 0, so an unsustained event dies away instead of holding.
/// When attack and release overlap (short events) the two ramps meet in a triangle.
public struct EventEnvelope: Sendable, Hashable {
    /// Attack in seconds.
    public var attack: Double
    /// Decay in seconds (used only when not sustained).
    public var decay: Double
    /// Release in seconds, ending at the event end.
    public var release: Double
    /// Whether the level holds after the attack (`Sustained` = 1).
    public var sustained: Bool
    /// The event's sounding length in seconds.
    public var duration: Double

    /// Negative times are treated as 0.
    public init(attack: Double, decay: Double, release: Double, sustained: Bool, duration: Double) {
        self.attack = Self.nonNegative(attack)
        self.decay = Self.nonNegative(decay)
        self.release = Self.nonNegative(release)
        self.sustained = sustained
        self.duration = Self.nonNegative(duration)
    }

    private static func nonNegative(_ seconds: Double) -> Double { seconds.isNaN ? 0 : max(0, seconds) }

    /// The gain at `localTime` seconds after the event start; 0 outside the event.
    public func gain(at localTime: Double) -> Double {
        guard localTime >= 0, localTime < duration else { return 0 }
        let rise = attack > 0 ? localTime / attack : 1
        let fall = release > 0 ? (duration - localTime) / release : 1
        let body: Double
        if sustained || localTime <= attack {
            body = 1
        } else if decay > 0 {
            body = 1 - (localTime - attack) / decay
        } else {
            body = 0
        }
        return min(1, max(0, min(rise, fall, body)))
    }

    /// The end (local time) of the stretch from `localTime` over which `gain(at:)` stays what it
    /// is at `localTime`: the sustain between attack and release, the silence a decay ends in;
    /// `localTime` itself while the gain moves.
    func steadyUntil(after localTime: Double) -> Double {
        guard localTime >= attack, localTime < duration else { return localTime }
        if sustained {
            // Rise and body at 1 from the attack's end; the fall reaches below 1 where the release begins.
            let releaseStart = duration - release
            return localTime < releaseStart && gain(at: localTime) == 1 ? releaseStart : localTime
        }
        // Past the attack a decaying body only falls, so once the gain is 0 it stays 0 (rise and
        // fall are positive inside the event: only the body makes it 0).
        return localTime > attack && gain(at: localTime) == 0 ? duration : localTime
    }
}
