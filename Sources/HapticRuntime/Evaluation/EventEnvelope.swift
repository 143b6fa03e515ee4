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
    public var attack: Double
    public var decay: Double
    public var release: Double
    public var sustained: Bool
    /// The event's sounding length in seconds.
    public var duration: Double

    public init(attack: Double, decay: Double, release: Double, sustained: Bool, duration: Double) {
        self.attack = max(0, attack)
        self.decay = max(0, decay)
        self.release = max(0, release)
        self.sustained = sustained
        self.duration = max(0, duration)
    }

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
}
