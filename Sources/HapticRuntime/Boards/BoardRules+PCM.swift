import ActuatorHAL

/// Rules for actuators driven as audio (`compatible: pcm-actuator`) and the board's `audio:` output.
extension BoardRules {
    /// Rates ALSA devices commonly run at; outside it a value is a typo (kHz for Hz).
    static let pcmSampleRates = 8_000...192_000
    /// Period sizes worth asking for: below 16 frames no device keeps up; above 8192 latency is gone.
    static let pcmPeriodFrames = 16...8_192
    static let pcmChannels = 1...32
    /// Mechanical resonances of voice coils and LRAs sold for haptics, with margin.
    static let pcmResonantFrequencies = 20.0...1_000.0

    /// Problems of PCM actuator `index`.
    func pcmActuatorProblems(at index: Int) -> [BoardFileError] {
        let actuator = file.description.actuators[index]
        let path = BoardKeyPath([.key("actuators"), .index(index)])
        var found: [BoardFileError] = []
        let chipKeys: [(ActuatorDescription.CodingKeys, Bool)] = [
            (.bus, actuator.bus != nil), (.mux, actuator.mux != nil), (.muxChannel, actuator.muxChannel != nil),
            (.enableGPIOs, actuator.enableGPIOs != nil), (.loop, actuator.loop != nil), (.librarySel, actuator.librarySel != nil),
            (.feedbackBrakeFactor, actuator.feedbackBrakeFactor != nil), (.loopGain, actuator.loopGain != nil),
            (.vibRatedMillivolts, actuator.vibRatedMillivolts != nil), (.vibOverdriveMillivolts, actuator.vibOverdriveMillivolts != nil),
        ]
        for (key, given) in chipKeys where given {
            found.append(file.problem(at: path.appending(key.stringValue), "'\(key.stringValue)' is for DRV260x chips; a pcm-actuator is driven through its ALSA 'device' (use max-amplitude for its drive level)"))
        }
        let kind = ActuatorKind(rawValue: actuator.actuatorMode.lowercased())
        if kind != .lra && kind != .voiceCoil {
            found.append(file.problem(at: path.appending("actuator-mode"), "a pcm-actuator is LRA or voice-coil, not '\(actuator.actuatorMode)'"))
        }
        if let frequency = actuator.resonantFrequencyHz {
            let range = kind == .lra ? Self.resonantFrequencies : Self.pcmResonantFrequencies
            if !range.contains(frequency) {
                found.append(file.problem(at: path.appending("resonant-frequency-hz"), "\(frequency) Hz is outside \(Int(range.lowerBound))...\(Int(range.upperBound)) Hz"))
            }
        } else if kind == .lra {
            found.append(file.problem(at: path, "an LRA needs resonant-frequency-hz: it is driven by a sine at that frequency"))
        }
        if let pcm = actuator.pcm {
            found += outputProblems(pcm, at: path)
            if pcm.maxAmplitude == nil {
                found.append(file.problem(at: path, "a pcm-actuator needs max-amplitude (0-1): the share of full scale that gives the actuator its rated voltage"))
            }
        }
        return found
    }

    /// Problems of one ALSA stream description at `path`.
    func outputProblems(_ output: PCMOutputDescription, at path: BoardKeyPath) -> [BoardFileError] {
        var found: [BoardFileError] = []
        func check(_ condition: Bool, _ key: PCMOutputDescription.CodingKeys, _ message: @autoclosure () -> String) {
            if !condition { found.append(file.problem(at: path.appending(key.stringValue), message())) }
        }
        check(!output.device.isBlank, .device, "expected an ALSA device name such as hw:CARD=sndrpihifiberry,DEV=0")
        check(Self.pcmChannels.contains(output.channels), .channels, "expected 1...\(Self.pcmChannels.upperBound) channels, not \(output.channels)")
        if let map = output.channelMap, Self.pcmChannels.contains(output.channels) {
            do {
                _ = try PCMChannelMap(deviceChannels: output.channels, channels: map.map { $0 - 1 })
            } catch {
                check(false, .channelMap, "\(error)")
            }
        }
        if let rate = output.sampleRate {
            check(Self.pcmSampleRates.contains(rate), .sampleRate, "\(rate) Hz is outside \(Self.pcmSampleRates.lowerBound)...\(Self.pcmSampleRates.upperBound) Hz")
        }
        if let period = output.periodFrames {
            check(Self.pcmPeriodFrames.contains(period), .periodFrames, "expected \(Self.pcmPeriodFrames.lowerBound)...\(Self.pcmPeriodFrames.upperBound) frames, not \(period)")
        }
        if let amplitude = output.maxAmplitude {
            check(amplitude > 0 && amplitude <= 1, .maxAmplitude, "expected a share of full scale in (0, 1], not \(amplitude)")
        }
        return found
    }

    /// The `audio:` output's problems. Sound is panned over the stream's first two channels, so
    /// a channel map or an amplitude cap there would be silently ignored: both are refused.
    func audioProblems() -> [BoardFileError] {
        guard let audio = file.description.audio else { return [] }
        let path = BoardKeyPath([.key("audio")])
        var found = outputProblems(audio.output, at: path)
        if audio.output.channelMap != nil {
            found.append(file.problem(at: path.appending("channel-map"), "sound plays on the device's first two channels; to use others, point 'device' at an ALSA dshare PCM bound to them"))
        }
        if audio.output.maxAmplitude != nil {
            found.append(file.problem(at: path.appending("max-amplitude"), "max-amplitude is for pcm-actuators; set the sound level with AudioVolume or the mixer (alsamixer)"))
        }
        return found
    }

    /// hapticboard opens one stream per ALSA device; two outputs naming one device would fight over it.
    func pcmDeviceConflicts() -> [BoardFileError] {
        var outputs: [(String, PCMOutputDescription, BoardKeyPath)] = file.description.actuators.enumerated().compactMap { index, actuator in
            actuator.pcm.map { (actuator.name, $0, BoardKeyPath([.key("actuators"), .index(index), .key("device")])) }
        }
        if let audio = file.description.audio {
            outputs.append(("audio", audio.output, BoardKeyPath([.key("audio"), .key("device")])))
        }
        var found: [BoardFileError] = []
        var opened: [String: String] = [:]
        for (name, output, path) in outputs {
            if let other = opened[output.device] {
                found.append(file.problem(at: path, "device '\(output.device)' is already used by '\(other)': each output opens its own stream, so give each an ALSA dshare PCM over the device (one per channel group) instead"))
            } else {
                opened[output.device] = name
            }
        }
        return found
    }
}
