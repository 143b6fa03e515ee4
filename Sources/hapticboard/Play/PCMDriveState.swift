import ActuatorHAL
import HapticRuntime
import HardwareMocks

/// What a simulated PCM actuator's device received during `play`: how tests (and a user without
/// the hardware) see the drive's level and frequency.
struct PCMDriveState: Encodable {
    /// The actuator.
    var name: String
    /// The device channel measured: the first of the actuator's channel map, one-based as in the
    /// board file's `channel-map`.
    var channel: Int
    /// Frames the device played, silence included.
    var frames: Int
    /// The largest sample magnitude, full scale 1.
    var peak: Double
    /// Rising zero crossings per second over the drive (nil with fewer than two): the drive
    /// frequency of a continuous LRA drive, its resonant frequency.
    var driveFrequencyHz: Double?
    /// Drive writes that found the device buffer full and waited on the timing thread (should be 0).
    var writesThatWaited: Int

    /// The state of PCM actuator `actuator`'s simulated device, opened once per wake as `devices`.
    init?(_ actuator: BoardActuator, devices: [PCMCaptureSink]) {
        guard let configuration = actuator.pcm?.configuration else { return nil }
        name = actuator.name
        let index = configuration.channelMap.channels.first ?? 0
        channel = index + 1
        let signal = devices.flatMap { $0.channel(index) }
        frames = signal.count
        peak = SignalMeasurement.peak(of: signal, in: 0..<signal.count)
        driveFrequencyHz = SignalMeasurement.zeroCrossingFrequency(of: signal, sampleRate: configuration.format.sampleRate)
        writesThatWaited = devices.reduce(0) { $0 + $1.writesThatWaited }
    }

    var text: String {
        let frequency = driveFrequencyHz.map { ", drive \(ContentSummary.number($0)) Hz" } ?? ""
        let waits = writesThatWaited > 0 ? ", \(writesThatWaited) write(s) waited for room" : ""
        return "pcm \(name): channel \(channel), \(frames) frames, peak \(ContentSummary.number(peak))\(frequency)\(waits)"
    }
}
