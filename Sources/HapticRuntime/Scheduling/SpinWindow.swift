/// How long before a dispatch instant the timing thread stops sleeping and spins: the margin the
/// kernel's wake-up cannot be trusted with, learned from the wake-up error it measures (woke −
/// asked, on the absolute timerfd / clock_nanosleep sleep).
///
/// Like TCP's retransmission timer (Jacobson/Karels), it keeps a smoothed mean and a smoothed mean
/// deviation of the error, and sets the margin to mean + one deviation: a thread whose wake-ups
/// are steady wakes just before its deadline and spins only the few microseconds of the jitter.
/// One deviation rather than TCP's four: a wake-up later than that is late by a fraction of the
/// jitter (tens of microseconds, a sixth of an LRA cycle at worst), while every microsecond of
/// margin is spun on every update of a 1 kHz stream. Bounded to 2…500 µs.
///
/// A value continuing a stream (an RTP amplitude a period after the last) spins at most
/// `streamCeiling`: on an idle VM or board, whose wake-ups come out of a halted core tens of
/// microseconds late and vary, the learned margin was spun before every one of 1,000 updates a
/// second, and cost the stream more of a core than `asyncAfter`'s whole wake-up. A value that late
/// changes nothing an actuator can show (an LRA's cycle is 5–6 ms; the next value is a period
/// away) and is counted late only past a period. Onsets keep the whole margin — one-off effects,
/// controls, and a stream's first value after a gap (`PendingCommands.streamContinuationGap`):
/// they are what sound and touch are aligned on. Housekeeping (`CommandClass.housekeeping`: status
/// polls, idle timers) is not spun for at all: under a service's load its deadlines came a few
/// per trigger, and spinning toward them took the CPU the requests needed.
struct SpinWindow {
    /// How closely the timing thread aims at the next command.
    enum Aim: Equatable {
        /// The whole learned margin: a click, a control, a stream's first value.
        case onset
        /// At most `streamCeiling`: a stream's value a period after the last.
        case continuingStream
        /// No margin: housekeeping, run when the kernel wakes the thread.
        case none
    }

    static let minimum = Duration.microseconds(2)
    static let maximum = Duration.microseconds(500)
    /// The most spun before a value continuing a stream: the last few microseconds.
    static let streamCeiling = Duration.microseconds(10)
    /// Before anything is measured: about what a stock kernel's wake-up takes on a small board.
    static let initial = Duration.microseconds(150)
    /// The weights of a new sample in the mean (1/8) and the deviation (1/4), as in RFC 6298.
    static let meanWeight: Int64 = 8
    static let deviationWeight: Int64 = 4

    private var mean: Duration?
    private var deviation = Duration.zero
    private(set) var duration = SpinWindow.initial

    /// How long before the next dispatch to stop sleeping: the learned margin before an onset,
    /// at most `streamCeiling` before a value continuing a stream, nothing before housekeeping.
    func margin(for aim: Aim) -> Duration {
        switch aim {
        case .onset: duration
        case .continuingStream: min(duration, Self.streamCeiling)
        case .none: .zero
        }
    }

    /// Adapts to one uninterrupted sleep that woke `error` after the instant it asked for.
    mutating func observe(wakeUpError error: Duration) {
        let sample = max(error, .zero)
        if let mean {
            let difference = sample > mean ? sample - mean : mean - sample
            deviation += (difference - deviation) / Self.deviationWeight
            self.mean = mean + (sample - mean) / Self.meanWeight
        } else {
            mean = sample
            deviation = sample / 2
        }
        duration = min(max((mean ?? sample) + deviation, Self.minimum), Self.maximum)
    }
}
