import ActuatorHAL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HapticRuntime
import HardwareMocks

extension BoardFile {
    /// The configuration of PCM actuator `index` (checked by `BoardRules` first): one-based
    /// channel numbers become a zero-based `PCMChannelMap`, missing rate and period take the
    /// low-latency defaults.
    func pcmActuatorConfiguration(forActuatorAt index: Int) throws(BoardFileError) -> PCMActuatorConfiguration {
        let actuator = description.actuators[index]
        let path = BoardKeyPath([.key("actuators"), .index(index)])
        guard let pcm = actuator.pcm else { throw problem(at: path.appending("compatible"), "not a \(ActuatorDescription.pcmCompatible)") }
        guard let kind = ActuatorKind(rawValue: actuator.actuatorMode.lowercased()), kind != .erm else {
            throw problem(at: path.appending("actuator-mode"), "a pcm-actuator is LRA or voice-coil, not '\(actuator.actuatorMode)'")
        }
        let format = try outputFormat(pcm, at: path)
        let channelMap: PCMChannelMap
        do {
            channelMap = try PCMChannelMap(deviceChannels: pcm.channels, channels: (pcm.channelMap ?? Array(1...max(1, pcm.channels))).map { $0 - 1 })
        } catch {
            throw problem(at: path.appending("channel-map"), "\(error)")
        }
        return PCMActuatorConfiguration(kind: kind, format: format, channelMap: channelMap, resonantFrequency: actuator.resonantFrequencyHz, maximumAmplitude: pcm.maxAmplitude ?? 0)
    }

    /// The stream format of an output: its channels, rate (default 48 kHz) and period (default
    /// `PCMFormat.lowLatencyPeriodFrames`).
    func outputFormat(_ output: PCMOutputDescription, at path: BoardKeyPath) throws(BoardFileError) -> PCMFormat {
        guard BoardRules.pcmChannels.contains(output.channels) else {
            throw problem(at: path.appending("channels"), "expected 1...\(BoardRules.pcmChannels.upperBound) channels, not \(output.channels)")
        }
        return PCMFormat(
            sampleRate: output.sampleRate ?? 48_000,
            channels: output.channels,
            periodFrames: output.periodFrames ?? PCMFormat.lowLatencyPeriodFrames
        )
    }
}

extension BoardFile {
    /// PCM actuator `index` on its ALSA device, opened when woken (`PCMActuator`'s off state holds
    /// no device).
    func pcmActuator(at index: Int, clock: any MonotonicClock) throws(BoardFileError) -> PCMActuator {
        let configuration = try pcmActuatorConfiguration(forActuatorAt: index)
        let device = description.actuators[index].pcm?.device ?? ""
        return PCMActuator(name: description.actuators[index].name, configuration: configuration, clock: clock) { () throws(PCMError) -> any PCMSink in
            try ALSAPCMSink(device: device, format: configuration.format)
        }
    }
}

extension BoardFile {
    /// The board's sound output (`audio:`) for content read from `contentFile` (its AudioCustom
    /// waveforms and notes' sounds resolve in that file's folder), decoding with libsndfile; nil
    /// when the board has no `audio:`. Attach it with `HapticEngine.attachAudio(_:)`; leave it
    /// out for `--no-audio`.
    /// - Throws: `BoardFileError` for a bad `audio:` entry, `PCMError` when the device cannot be opened.
    func engineAudio(contentFile: URL, clock: any MonotonicClock) throws -> EngineAudio? {
        guard let output = description.audio?.output else { return nil }
        let format = try outputFormat(output, at: BoardKeyPath([.key("audio")]))
        let sink = try ALSAPCMSink(device: output.device, format: format)
        let sounds = SoundLibrary(decoder: SoundFileDecoder(), sampleRate: sink.format.sampleRate, contentFile: contentFile)
        return EngineAudio(output: AudioScheduler(sink: sink, clock: clock), sounds: sounds)
    }
}

extension BoardFile {
    /// PCM actuator `index` on a simulated device (`device: sim`, or any device when commands
    /// only need the actuator as configured), capturing its drive on `clock`.
    func simulatedPCMActuator(at index: Int, clock: VirtualClock) throws(BoardFileError) -> OpenedPCMActuator {
        let configuration = try pcmActuatorConfiguration(forActuatorAt: index)
        let device = SimulatedPCMDevice(clock: clock)
        let description = description.actuators[index]
        let actuator = PCMActuator(name: description.name, configuration: configuration, clock: clock) { () throws(PCMError) -> any PCMSink in
            try device.open(configuration.format)
        }
        return OpenedPCMActuator(
            name: description.name, actuator: actuator, clock: clock,
            maximumContinuousDrive: description.maxContinuousDriveMs.map { .milliseconds($0) }, simulation: device
        )
    }
}
