import ActuatorHAL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HapticRuntime
import HardwareMocks

/// The sound `play` attaches to its engine: the board's `audio:` output, or on a simulated board
/// a `PCMCaptureSink` on the virtual clock, so the summary can say when each sound's first sample
/// left the (simulated) device against its haptic deadline.
struct PlayAudio {
    /// The simulated output's stream: 48 kHz stereo at the low-latency period, like a typical
    /// I2S amplifier or USB sound card.
    static let simulatedFormat = PCMFormat(sampleRate: 48_000, channels: 2, periodFrames: PCMFormat.lowLatencyPeriodFrames)

    let audio: EngineAudio
    /// Whether `audio` writes to a `PCMCaptureSink` rather than an ALSA device.
    let isSimulated: Bool

    /// The sound output for `board`, reading waveforms beside `contentFile`. When the engine runs
    /// on `simulatedClock` (simulated actuators), a capture sink on it: an ALSA device plays on
    /// the wall clock and could not be placed on virtual time. Otherwise the board file's
    /// `audio:` on its ALSA device (a capture sink on a new virtual clock would not keep time with
    /// real actuators, so `device: sim` then plays nothing); nil without a sound output.
    static func open(board: BoardChips, contentFile: URL, clock: any MonotonicClock, simulatedClock: VirtualClock?) throws -> PlayAudio? {
        let output = board.file.description.audio?.output
        if simulatedClock == nil, let output, output.device != BuiltInBoard.simName {
            guard let audio = try board.file.engineAudio(contentFile: contentFile, clock: clock) else { return nil }
            return PlayAudio(audio: audio, isSimulated: false)
        }
        guard let simulatedClock else { return nil }
        let format = try output.map { try board.file.outputFormat($0, at: BoardKeyPath([.key("audio")])) } ?? simulatedFormat
        // Its position moves a period at a time, as a real device's does.
        let sink = try PCMCaptureSink(name: "sim audio", format: format, positionGranularity: .period(halfOutOfPhaseWith: format), clock: simulatedClock)
        let sounds = SoundLibrary(decoder: SoundFileDecoder(), sampleRate: format.sampleRate, contentFile: contentFile)
        return PlayAudio(audio: EngineAudio(output: AudioScheduler(sink: sink, clock: clock), sounds: sounds), isSimulated: true)
    }

    /// Makes waveform paths resolve beside `contentFile` (each file played names its own sounds);
    /// the decoded sounds are kept while the folder stays the same.
    func resolveWaveforms(besides contentFile: URL) {
        let wanted = contentFile.absoluteURL.deletingLastPathComponent()
        guard wanted.standardizedFileURL != audio.sounds.folder.standardizedFileURL else { return }
        audio.sounds = SoundLibrary(decoder: audio.sounds.decoder, sampleRate: audio.sounds.sampleRate, folder: wanted)
    }
}
