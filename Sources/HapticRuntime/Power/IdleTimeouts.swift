/// How long an actuator may sit idle before the engine lowers its power state.
///
/// Defaults: standby after 2 s, off (EN low) after 30 s.
/// - 2 s to standby: Apple keeps a prepared Taptic Engine ready for "a few seconds"; leaving
///   standby again costs one MODE write and the standby-exit allowance (under 1 ms on a DRV2605 at
///   400 kHz), which the engine schedules ahead of the next event anyway, so holding the output
///   stage ready longer buys nothing.
/// - 30 s to off: EN low loses the register file, so the next wake pays the 250 µs start-up and a
///   read-back and rewrite of the configuration (a few ms of bus time). Interaction bursts (typing,
///   a game round, a menu scroll) stay well inside 30 s and pay that once; after that the chip draws
///   only its shutdown current.
public struct IdleTimeouts: Sendable, Hashable {
    /// Idle time after the last output before ready → standby.
    public var standby: Duration
    /// Idle time after the last output before → off; counted from the same moment as `standby`.
    public var sleep: Duration

    /// Timeouts; `sleep` shorter than `standby` skips standby and goes straight to off.
    public init(standby: Duration = .seconds(2), sleep: Duration = .seconds(30)) {
        self.standby = standby
        self.sleep = sleep
    }

    /// 2 s to standby, 30 s to off (see the type's documentation for why).
    public static let `default` = IdleTimeouts()
}
