import ActuatorHAL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HapticRuntime
import HardwareMocks

/// Part (d): a pattern of taps each with a sound, played on the sim board's chip and a simulated
/// sound device whose position moves a period at a time (as snd-aloop's and DMA hardware's do),
/// all on virtual time. Each sound's onset is when the device really plays its first frame; each
/// haptic onset is when the chip's GO write completed.
struct SimulatedOnsets {
    /// Onsets at staggered times, so they fall at every phase of the device's period.
    static let times = (0..<12).map { 0.1 + Double($0) * 0.0437 }
    static let format = PCMFormat.lowLatency(sampleRate: 48_000, channels: 2)

    func run() throws -> BenchReport.SyncRow {
        let board = try BoardChips.open(board: BuiltInBoard.simName)
        guard let chip = board.chips.first, let simulation = chip.simulation else { throw CommandLineError.noActuators(board: board.boardName) }
        let clock = simulation.clock
        let actuator = DRV2605Actuator(
            name: chip.name, driver: DRV2605(bus: simulation.bus, address: chip.address, enableLine: simulation.enableLine, clock: clock),
            configuration: chip.configuration
        )
        let scheduler = DeadlineScheduler(clock: clock)
        let engine = HapticEngine(actuators: [chip.name: actuator], clock: clock, scheduler: scheduler)
        let sink = try PCMCaptureSink(name: "sim audio", format: Self.format, positionGranularity: .period(halfOutOfPhaseWith: Self.format), clock: clock)
        let sounds = SoundLibrary(decoder: SoundFileDecoder(), sampleRate: Self.format.sampleRate, folder: FileManager.default.temporaryDirectory)
        let audio = EngineAudio(output: AudioScheduler(sink: sink, clock: clock), sounds: sounds)
        engine.attachAudio(audio)
        try engine.start()
        let events = Self.times.flatMap { time in
            [HapticEvent(type: .hapticTransient, time: time, parameters: [.init(.hapticIntensity, 1), .init(.hapticSharpness, 0.5)]),
             HapticEvent(type: .audioContinuous, time: time, duration: 0.02)]
        }
        let player = try engine.makePlayer(with: HapticPattern(events: events))
        try player.start(atTime: 0)
        scheduler.run(until: clock.now + .seconds(1))
        engine.stop()

        let go = simulation.bus.log.filter { entry in
            entry.error == nil && entry.operations == [.write([0x0C, 0x01])]
        }.map { $0.time + simulation.bus.wireTime(of: $0.operations) }
        let heard = audio.output.onsets.compactMap { sink.playTime(ofFrame: $0.frame) }
        let offsets = zip(heard, go).map { BenchReport.milliseconds($0 - $1) }
        return BenchReport.SyncRow(
            onsets: offsets.count, offsetsMilliseconds: offsets,
            device: "sim device, \(Self.format.periodFrames)-frame period at \(Self.format.sampleRate / 1000) kHz, position moving a period at a time"
        )
    }
}
