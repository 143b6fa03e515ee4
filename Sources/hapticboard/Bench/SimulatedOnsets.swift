import ActuatorHAL
import ActuatorHALLinux
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HapticRuntime
import HardwareMocks

/// Part (d): a pattern of taps each with a sound, played on the sim board's chip and a simulated
/// sound device whose position moves a period at a time (as DMA hardware's does),
/// all on virtual time. Each sound's onset is when the device really plays its first frame; each
/// haptic onset is when the chip's GO write completed.
struct SimulatedOnsets {
    /// Onsets at staggered times, so they fall at every phase of the device's period.
    static let times = (0..<12).map { 0.1 + Double($0) * 0.0437 }
    static let format = PCMFormat.lowLatency(sampleRate: 48_000, channels: 2)

    /// The simulated device behind a sound output.
    private func captureSink(_ audio: EngineAudio) throws -> PCMCaptureSink {
        guard let sink = audio.output.sink as? PCMCaptureSink else { throw CommandLineError.content("the simulated sound output is not a capture sink") }
        return sink
    }

    func run() throws -> BenchReport.SyncRow {
        let hardware = SimulatedBoardHardware(soundDecoder: SoundFileDecoder())
        let board = try Board.sim.open(on: hardware)
        guard let chip = board.actuators.first, let simulation = hardware.chips[chip.name] else { throw CommandLineError.noActuators(board: board.board.name) }
        let clock = hardware.virtualClock
        let engine = board.makeEngine()
        let audio = try board.openSoundOutput(device: Board.simName, format: Self.format, soundsIn: FileManager.default.temporaryDirectory)
        let sink = try captureSink(audio)
        engine.attachAudio(audio)
        try engine.start()
        let events = Self.times.flatMap { time in
            [HapticEvent(type: .hapticTransient, time: time, parameters: [.init(.hapticIntensity, 1), .init(.hapticSharpness, 0.5)]),
             HapticEvent(type: .audioContinuous, time: time, duration: 0.02)]
        }
        let player = try engine.makePlayer(with: HapticPattern(events: events))
        try player.start(atTime: 0)
        engine.scheduler.run(until: clock.now + .seconds(1))
        engine.stop()

        let go: [MonotonicInstant] = simulation.bus.log.filter { entry in
            entry.error == nil && entry.operations == [.write([0x0C, 0x01])]
        }.map { entry in entry.time + simulation.bus.wireTime(of: entry.operations) }
        let heard = audio.output.onsets.compactMap { sink.playTime(ofFrame: $0.frame) }
        let offsets = zip(heard, go).map { BenchReport.milliseconds($0 - $1) }
        return BenchReport.SyncRow(
            onsets: offsets.count, offsetsMilliseconds: offsets,
            device: "sim device, \(Self.format.periodFrames)-frame period at \(Self.format.sampleRate / 1000) kHz, position moving a period at a time"
        )
    }
}
