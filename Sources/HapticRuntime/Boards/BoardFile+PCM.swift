import ActuatorHAL

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
