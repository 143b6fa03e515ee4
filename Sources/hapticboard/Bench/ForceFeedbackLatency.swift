import ActuatorHAL
import ActuatorHALLinux
import Foundation
import HapticRuntime
import HardwareMocks

/// `bench --ff`: how long an `EV_FF` play takes to reach the bus through a `ForceFeedbackProvider`,
/// beside the direct engine path in the same run. The device is the simulated kernel device (a
/// client thread writes the play, the provider's thread reads it), the chip the sim board's
/// simulated DRV2605L behind a `ZeroCostBus`, ready (its idle timeouts far beyond the run), so
/// the figures are software overhead: device queue, provider thread, engine and timing thread.
struct ForceFeedbackLatency {
    /// The effect played: full strong rumble for 20 ms.
    static let effect = ForceFeedbackEffect(kind: .rumble(strong: 0xFFFF, weak: 0), length: 20)
    /// What SDL's Linux joystick backend uploads on every rumble call, into the slot it keeps:
    /// the rumble's new magnitudes with the longest replay length (SDL_MAX_RUMBLE_DURATION_MS,
    /// 65,535 ms), followed by a play. The game's thread waits in `EVIOCSFF` until the provider
    /// has planned and compiled the effect.
    static func rumbleUpdate(slot: Int16, strong: UInt16) -> ForceFeedbackEffect {
        ForceFeedbackEffect(id: slot, kind: .rumble(strong: strong, weak: strong / 2), length: 0xFFFF)
    }
    /// A new magnitude for each update, as a racing game's engine note moves (each a different
    /// effect to the provider: none is compiled already).
    static func updatedMagnitude(_ sample: Int) -> UInt16 { UInt16(0x4000 + (sample * 67) % 0xA000) }
    /// A game's effect of content not uploaded before (a new magnitude each time): a 200 ms sine
    /// followed for 10 s, so its level moves at every update and compiling it takes a while.
    static func newWave(_ sample: Int, slot: Int16) -> ForceFeedbackEffect {
        ForceFeedbackEffect(id: slot, kind: .periodic(.init(waveform: .sine, period: 200, magnitude: Int16(0x2000 + sample * 97))), length: 10_000)
    }
    /// The effect playing while `newWave`s are uploaded: a 40 ms triangle, which the provider
    /// follows with a new level at each 1 ms update (a twentieth of full scale apart, so every
    /// update is a register write).
    static let streamedWave = ForceFeedbackEffect(kind: .periodic(.init(waveform: .triangle, period: 40, magnitude: 0x7FFF)), length: 20_000)
    /// A gap between the stream's writes this long means an update came half a period late.
    static let missedUpdateGap = Duration.microseconds(1_500)
    /// Uploads made while `streamedWave` plays, 100 ms apart.
    static let uploadsDuringStream = 40
    /// The device's slots filled with `newWave`s before `FF_GAIN` is set and a play follows.
    static let storedAtGain = 14
    /// How long each play is left to end before the next.
    static let settle = Duration.milliseconds(40)
    /// How long one play may take to reach the bus before the run gives up on it.
    static let patience = Duration.seconds(2)

    let clock: SystemMonotonicClock
    let scheduler: DeadlineScheduler
    /// Whether the provider's thread asks for real-time priority, as `rumble` and `serve` do.
    let realtime: Bool
    /// The CPU the real-time threads keep to (`--realtime-cpu`); nil for any.
    let cpu: Int?
    let samples: Int

    /// The figures of one run.
    struct Figures {
        /// `EV_FF` play → first bus write through the device.
        var device = LatenessHistogram()
        /// `player.start(atTime: now)` of the same pattern → first bus write.
        var direct = LatenessHistogram()
        /// A rumble update's `EVIOCSFF` (`rumbleUpdate`) → the provider's answer.
        var updateUpload = LatenessHistogram()
        /// The same update's `EVIOCSFF` → the first bus write of the play that follows it.
        var updateToWrite = LatenessHistogram()
        /// The gaps between the register writes of `streamedWave`, one every 1 ms update, while
        /// a client uploads `newWave` effects beside it: what compiling an upload holds up.
        var streamGaps = LatenessHistogram()
        /// Gaps of those longer than `missedUpdateGap`: updates written late by half a period or more.
        var missedUpdates = 0
        /// Each of those uploads' `EVIOCSFF` → the provider's answer.
        var newWaveUpload = LatenessHistogram()
        /// `FF_GAIN` written with every slot holding an effect (`storedAtGain` of them new waves),
        /// then a play at once → that play's first bus write.
        var gainToWrite = LatenessHistogram()
    }

    /// Every figure: through the device, then `player.start(atTime: now)` of the same pattern,
    /// then rumble updates as SDL makes them.
    func run() throws -> Figures {
        let rig = try ReadyChipEngine(clock: clock, scheduler: scheduler)
        let (bus, engine) = (rig.bus, rig.engine)
        try engine.wakeActuators()
        try engine.start()
        defer { engine.stop() }
        let device = SimulatedForceFeedbackDevice(setup: ForceFeedbackDeviceSetup(name: "hapticboard bench"))
        let provider = try ForceFeedbackProvider(device: device, engine: engine, layout: ForceFeedbackLayout(strong: rig.actuator, weak: nil))
        try provider.start(threadSetup: realtime ? RealtimeThread.inputReader(cpu: cpu) : nil)
        defer { provider.stop() }
        let client = device.connect()
        let id = try client.upload(Self.effect)

        // The first play prepares the chip for real-time drive; not measured.
        try client.play(effectID: id, count: 1)
        try clock.sleep(for: Self.settle)
        var figures = Figures()
        for _ in 0..<samples {
            bus.arm()
            let requested = clock.now
            try client.play(effectID: id, count: 1)
            if let wrote = bus.waitForWrite(patience: Self.patience) { figures.device.record(wrote - requested) }
            try clock.sleep(for: Self.settle)
        }

        let pattern = provider.plans(ofSlot: Int(id))[rig.actuator]?.pattern ?? HapticPattern()
        let player = try engine.makeAdvancedPlayer(with: pattern, on: rig.actuator)
        for _ in 0..<samples {
            bus.arm()
            let requested = clock.now
            try player.start(atTime: requested.seconds)
            if let wrote = bus.waitForWrite(patience: Self.patience) { figures.direct.record(wrote - requested) }
            try clock.sleep(for: Self.settle)
        }

        let slot = try client.upload(Self.rumbleUpdate(slot: -1, strong: 0x8000))
        for sample in 0..<samples {
            bus.arm()
            let requested = clock.now
            _ = try client.upload(Self.rumbleUpdate(slot: slot, strong: Self.updatedMagnitude(sample)))
            figures.updateUpload.record(clock.now - requested)
            try client.play(effectID: slot, count: 1)
            if let wrote = bus.waitForWrite(patience: Self.patience) { figures.updateToWrite.record(wrote - requested) }
            try client.play(effectID: slot, count: 0)
            try clock.sleep(for: Self.settle)
        }
        try uploadWhileStreaming(client: client, bus: bus, into: &figures)
        try playAfterGain(client: client, bus: bus, played: id, into: &figures)
        return figures
    }

    /// A game setting its gain with its effects stored, then playing one: the play waits for
    /// whatever the gain makes the provider compile first.
    private func playAfterGain(client: SimulatedForceFeedbackDevice.Client, bus: ZeroCostBus, played: Int16, into figures: inout Figures) throws {
        let stored = try (0..<Self.storedAtGain).map { sample in try client.upload(Self.newWave(Self.uploadsDuringStream + sample, slot: -1)) }
        for sample in 0..<samples {
            bus.arm()
            let requested = clock.now
            try client.setGain(sample % 2 == 0 ? 0xC000 : 0xFFFF)
            try client.play(effectID: played, count: 1)
            if let wrote = bus.waitForWrite(patience: Self.patience) { figures.gainToWrite.record(wrote - requested) }
            try client.play(effectID: played, count: 0)
            try clock.sleep(for: Self.settle)
        }
        for id in stored { try client.erase(effectID: id) }
    }

    private func uploadWhileStreaming(client: SimulatedForceFeedbackDevice.Client, bus: ZeroCostBus, into figures: inout Figures) throws {
        let stream = try client.upload(Self.streamedWave)
        try client.play(effectID: stream, count: 1)
        try clock.sleep(for: .milliseconds(100))
        // Every write from here on is the stream's: the uploads only compile.
        bus.startRecording(capacity: Self.uploadsDuringStream * 200)
        var slot: Int16 = -1
        for sample in 0..<Self.uploadsDuringStream {
            let requested = clock.now
            slot = try client.upload(Self.newWave(sample, slot: slot))
            figures.newWaveUpload.record(clock.now - requested)
            try clock.sleep(for: .milliseconds(100))
        }
        let writes = bus.stopRecording()
        try client.play(effectID: stream, count: 0)
        try client.erase(effectID: stream)
        try client.erase(effectID: slot)
        for (earlier, later) in zip(writes, writes.dropFirst()) {
            figures.streamGaps.record(later - earlier)
            if later - earlier > Self.missedUpdateGap { figures.missedUpdates += 1 }
        }
    }
}
