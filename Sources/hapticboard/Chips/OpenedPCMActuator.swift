import ActuatorHAL
import ActuatorHALLinux
import HardwareMocks

/// One PCM-driven actuator of a board (`compatible: pcm-actuator`): an LRA or voice coil behind
/// an amplifier, driven as audio. The device opens when the actuator wakes.
struct OpenedPCMActuator {
    /// The actuator's name in the board description.
    var name: String
    var actuator: PCMActuator
    /// The clock the actuator runs on.
    var clock: any MonotonicClock
    /// The board file's `max-continuous-drive-ms`.
    var maximumContinuousDrive: Duration?
    /// For `device: sim` (or a stand-in for a real device): the simulated device that keeps the drive.
    var simulation: SimulatedPCMDevice?
}

/// The stand-in for a PCM actuator's ALSA device: each wake opens a `PCMCaptureSink` on the
/// virtual clock, which keeps every sample the actuator played.
final class SimulatedPCMDevice {
    /// The clock the captured frames play on.
    let clock: VirtualClock
    /// The devices opened so far, one per wake, oldest first.
    private(set) var sinks: [PCMCaptureSink] = []

    /// A device stand-in on `clock`.
    init(clock: VirtualClock) {
        self.clock = clock
    }

    /// Opens a capture sink for `format` with the four-period buffer `ALSAPCMSink` asks a real
    /// device for, so a drive block too long to fit makes the writer wait here as it would there.
    func open(_ format: PCMFormat) throws(PCMError) -> any PCMSink {
        let sink = try PCMCaptureSink(name: "sim pcm", format: format, clock: clock)
        sinks.append(sink)
        return sink
    }

    /// Writes that waited for room in the buffer, across every wake.
    var writesThatWaited: Int { sinks.reduce(0) { $0 + $1.writesThatWaited } }

    /// Every sample played on device channel `index` (full scale ±1), across every wake.
    func channel(_ index: Int) -> [Double] {
        sinks.flatMap { $0.channel(index) }
    }
}
