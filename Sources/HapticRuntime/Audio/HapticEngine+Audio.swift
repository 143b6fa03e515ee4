import ActuatorHAL

extension HapticEngine {
    /// Gives the engine a sound output (see `EngineAudio`); nil detaches it. The stream starts
    /// being serviced now if the engine runs, else when it starts.
    public func attachAudio(_ audio: EngineAudio?) {
        locked {
            if let old = audioOutput, let token = old.serviceToken {
                scheduler.cancel(token)
                old.serviceToken = nil
            }
            audioOutput = audio
            audio?.output.isMuted = isMutedForAudio
            if isRunningUnlocked { serviceAudio() }
        }
    }

    /// The attached sound output.
    public var audio: EngineAudio? { locked { audioOutput } }

    /// Starts servicing the stream (now, then once a period) if the engine runs, a sound plays or
    /// waits, and it is not already being serviced. With nothing to play there is nothing to
    /// schedule: a service queued at engine start would only wait, and be counted late, behind
    /// whatever runs before the timing thread does.
    func serviceAudio() {
        guard let audio = audioOutput, audio.serviceToken == nil, isRunningUnlocked, !audio.output.isIdle else { return }
        scheduleAudioService(of: audio, at: clock.now)
    }

    /// Tops the stream up at `deadline` and comes back one period later while the engine runs
    /// with this output and something is playing or waiting; an error ends the servicing and
    /// reaches the scheduler's error handler. A service that ran more than a period late comes
    /// back a period after it ran rather than after its deadline: it tops the queue up to its
    /// target whenever it runs, so catching up on missed periods would only run it back to back
    /// for nothing.
    private func scheduleAudioService(of audio: EngineAudio, at deadline: MonotonicInstant) {
        let format = audio.output.sink.format
        let period = format.duration(ofFrames: format.periodFrames)
        audio.serviceToken = scheduleControl(at: deadline, key: CostKey("audio-service")) { [weak self, weak audio] in
            guard let self, let audio else { return }
            audio.serviceToken = nil
            guard self.isRunningUnlocked, self.audioOutput === audio else { return }
            try audio.output.service()
            // With nothing left to play the stream runs dry and the timing thread rests until a
            // player or a piano note schedules a sound again.
            guard !audio.output.isIdle else {
                audio.output.pauseStreaming()
                return
            }
            let now = self.clock.now
            self.scheduleAudioService(of: audio, at: deadline + period > now ? deadline + period : now + period)
        }
    }

    /// Whether every sound has left the device: none waits or plays in the mixer and the device
    /// queue has run dry. `stop` drops whatever the device still holds, so an owner ending playback
    /// on its own waits for this first: a sound placed late (its service ran late, as on a busy or
    /// emulated machine) ends after its player does, and the device holds up to a buffer of it.
    /// True without a sound output.
    /// - Throws: the device's `PCMError` when its queue cannot be read.
    public func soundHasPlayedOut() throws -> Bool {
        try locked {
            guard let output = audioOutput?.output else { return true }
            return try output.isIdle && output.sink.queuedFrames() == 0
        }
    }

    /// Stops the stream when the engine stops: sounds dropped, the device queue discarded.
    func haltAudio() -> (any Error)? {
        guard let audio = audioOutput else { return nil }
        if let token = audio.serviceToken { scheduler.cancel(token) }
        audio.serviceToken = nil
        do {
            try audio.output.stop()
            return nil
        } catch {
            return error
        }
    }

    /// `program` ending no earlier than `pattern`'s sounds, so a player's end, completion and
    /// `waitUntilFinished` include them: its final `.stop` moves to the last sound's end. A
    /// program with no commands (a pattern of sounds only) only gets the longer duration, so the
    /// actuator is not woken for it and the player still lasts as long as its sounds.
    func extendedToItsSounds(_ program: ActuatorProgram, of pattern: HapticPattern) -> ActuatorProgram {
        guard let audio = audioOutput else { return program }
        let end = audio.soundEnd(of: pattern)
        guard end > program.duration else { return program }
        var extended = program
        if let last = program.commands.last {
            guard last.command == .stop else { return program }
            extended.commands[extended.commands.count - 1].time = end
        }
        extended.duration = end
        return extended
    }

    /// Renders `pattern`'s sounds before a player for it is made, outside the engine's lock, so
    /// starting it later does not hold the lock (and the timing thread) for the render.
    func prerenderAudio(_ pattern: HapticPattern) {
        guard let audio = locked({ playsHapticsOnly ? nil : audioOutput }) else { return }
        audio.prerender(pattern)
    }

    /// Called when a player begins at `origin` from pattern time `offset`. `pattern` (the player's
    /// pattern with its sent parameters applied, built anew) is made only when sounds are played.
    func playerBeganAudio(_ pattern: @autoclosure () -> HapticPattern, from offset: Double, at origin: MonotonicInstant, rate: Double, player: Int) {
        guard let audio = audioOutput else { return }
        guard !playsHapticsOnly, rate == 1 else {
            audio.output.cancel(owner: player)
            return
        }
        audio.schedule(pattern(), from: offset, at: origin, owner: player)
        if audio.serviceToken == nil { serviceAudio() }
    }

    /// Called when a playing player got new dynamic parameters from pattern time `time`, which
    /// plays at `instant`.
    func playerReplannedAudio(_ pattern: @autoclosure () -> HapticPattern, from time: Double, at instant: MonotonicInstant, rate: Double, player: Int) {
        guard let audio = audioOutput, !playsHapticsOnly, rate == 1 else { return }
        audio.replan(pattern(), from: time, at: instant, owner: player)
    }

    /// Plays `sound` (a Piano `.sound` note) at `instant` for `owner`; returns its length in
    /// seconds, or nil without a sound output, with `playsHapticsOnly`, or when the file cannot be
    /// played (see `EngineAudio.problems`).
    func playSound(_ sound: Note.Sound, at instant: MonotonicInstant, owner: inout Int?) -> Double? {
        guard let audio = audioOutput, !playsHapticsOnly else { return nil }
        let id = owner ?? audio.makeOwner()
        owner = id
        let length = audio.scheduleSound(sound, at: instant, owner: id)
        if audio.serviceToken == nil { serviceAudio() }
        return length
    }

    /// Called when a player stops, pauses or is cancelled: its sounds fade out.
    func playerStoppedAudio(player: Int) {
        audioOutput?.output.cancel(owner: player)
    }
}
