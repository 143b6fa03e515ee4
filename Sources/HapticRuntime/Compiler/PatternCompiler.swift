import ActuatorHAL

/// Turns a `HapticPattern` into the `ActuatorProgram` one actuator plays.
///
/// - Audio-driven actuators (`supportsPCM`): everything becomes PCM — a carrier at the mapped
///   frequency times the mixed level, transients as bursts with a shaped attack and a braking
///   half-cycle (see `PCMRenderer`, `TransientDrive`).
/// - Chips with a ROM library: note cues trigger their effects; other transients trigger the
///   nearest effect in `ROMEffectTable` (simultaneous ones mixed first), except a `.haptic`
///   clip's emphasis, which is a pulse layered over the clip's stream. Continuous events,
///   envelopes, curves and dynamic parameters stream as amplitude samples.
/// - Without a library, transients become amplitude pulses in the stream.
/// - A ROM trigger cannot play while the chip streams (one mode at a time), nor so close to a
///   stream that there is no time to switch modes; such triggers become pulses in the stream and
///   the program warns that the ROM effect was dropped.
/// - Overlapping events mix by `DriveLevel.mix`; sharpness is rendered by `SharpnessMapping`.
/// - Each `.prepare` is issued `modeSwitchCost` before the first command of its mode.
public struct PatternCompiler: Sendable {
    /// What the target actuator can do.
    public var capabilities: ActuatorCapabilities
    /// Rates, costs and estimates.
    public var options: CompilerOptions
    /// Whether the amplitude renderer skips samples the content promises are unchanged
    /// (`AmplitudeRenderer.skipsSteadyStretches`); off only in tests, to compare.
    var skipsSteadyStretches = true

    /// A compiler for one actuator.
    public init(capabilities: ActuatorCapabilities, options: CompilerOptions = CompilerOptions()) {
        self.capabilities = capabilities
        self.options = options
    }

    /// The amplitude update rate used: the wanted rate, lowered so updates take at most
    /// `maximumBusShare` of the bus time.
    public var updateRate: Double {
        let wanted = requestedRate
        let cost = capabilities.amplitudeUpdateCost.secondsValue
        guard cost > 0 else { return wanted }
        return max(1, min(wanted, options.maximumBusShare / cost))
    }

    /// The wanted rate, kept to 1 Hz…100 kHz so a stray option cannot stall the compiler.
    private var requestedRate: Double {
        options.updateRate.isFinite ? min(100_000, max(1, options.updateRate)) : 1000
    }

    /// Compiles `pattern`; never fails — what cannot be played becomes a warning.
    public func compile(_ source: HapticPattern) -> ActuatorProgram {
        let playable = PlayablePattern(source, maximumDuration: options.maximumDuration)
        let pattern = playable.pattern
        let evaluator = PatternEvaluator(pattern)
        let rate = updateRate
        var warnings = playable.warnings
        if rate < requestedRate {
            warnings.append(ProgramWarning(time: nil, message: "amplitude update rate lowered from \(Int(requestedRate)) Hz to \(Int(rate)) Hz so updates take at most \(CompactNumber.text(options.maximumBusShare * 100)) % of the bus"))
        }
        let audioCount = pattern.events.filter { !$0.type.isHaptic }.count
        if audioCount > 0 {
            warnings.append(ProgramWarning(time: nil, message: "\(audioCount) audio event(s) not played: actuators render haptic events only"))
        }

        var commands: [TimedCommand]
        var end: Double
        if capabilities.supportsPCM {
            let renderer = PCMRenderer(evaluator: evaluator, mapping: SharpnessMapping(capabilities: capabilities), options: options, controlRate: requestedRate)
            (commands, end) = renderer.render(everythingAsStream(evaluator))
        } else {
            (commands, end) = compileForChip(evaluator, rate: rate, warnings: &warnings)
        }
        end = min(max(end, pattern.duration), options.maximumDuration)
        // A release or stream tail running past the longest program is cut with the rest of it,
        // so nothing follows the stop.
        commands.removeAll { $0.time > end }
        if !commands.isEmpty {
            commands.append(TimedCommand(time: end, command: .stop))
        }
        return ActuatorProgram(commands: commands.sortedKeepingOrder { $0.time }, duration: commands.isEmpty ? pattern.duration : end, updateRate: rate, pcmSampleRate: options.pcmSampleRate, warnings: warnings)
    }

    private func everythingAsStream(_ evaluator: PatternEvaluator) -> StreamContent {
        var stream = StreamContent()
        for (index, event) in evaluator.pattern.events.enumerated() where event.type.isHaptic {
            add(index, of: evaluator, to: &stream)
        }
        return stream
    }

    /// Adds the event at `index` to the stream (a transient as a pulse); returns when it sounds.
    @discardableResult
    private func add(_ index: Int, of evaluator: PatternEvaluator, to stream: inout StreamContent) -> TimeSpan {
        let event = evaluator.pattern.events[index]
        if event.type == .hapticTransient {
            let pulse = Pulse(evaluator.impulse(ofEventAt: index))
            stream.pulses.append(pulse)
            return TimeSpan(start: pulse.time, end: pulse.end)
        } else {
            stream.events.append(index)
            return TimeSpan(start: event.time, end: event.soundingEnd)
        }
    }

    private func compileForChip(_ evaluator: PatternEvaluator, rate: Double, warnings: inout [ProgramWarning]) -> ([TimedCommand], Double) {
        let pattern = evaluator.pattern
        let library = capabilities.romLibrary.flatMap { $0 == .empty ? nil : $0 }
        var romItems: [ROMItem] = []
        var stream = StreamContent()
        if let library {
            romItems = romItemsAndStream(evaluator, library: library, stream: &stream, warnings: &warnings)
        } else {
            stream = everythingAsStream(evaluator)
        }

        let cost = max(0, options.modeSwitchCost.secondsValue)
        let period = 1 / rate
        let brake = capabilities.supportsSignedAmplitude ? period : 0
        if !capabilities.supportsRealtimeAmplitude {
            if !stream.isEmpty {
                warnings.append(ProgramWarning(time: nil, message: "\(stream.events.count) continuous event(s) and \(stream.pulses.count) transient(s) not played: the actuator cannot stream amplitude"))
            }
            stream = StreamContent()
        } else {
            resolveConflicts(&romItems, &stream, evaluator: evaluator, joinGap: period, cost: cost, brake: brake, warnings: &warnings)
        }

        let spans = stream.spans(in: pattern, joinGap: period)

        // Blocks in time order; blocks of different modes never overlap after conflict resolution.
        enum Block {
            case rom(ROMItem)
            case stream(TimeSpan)
            var start: Double {
                switch self {
                case .rom(let item): item.time
                case .stream(let span): span.start
                }
            }
        }
        let blocks = (romItems.map(Block.rom) + spans.map(Block.stream)).sorted { $0.start < $1.start }
        var renderer = AmplitudeRenderer(evaluator: evaluator, capabilities: capabilities, rate: rate)
        renderer.skipsSteadyStretches = skipsSteadyStretches
        var commands: [TimedCommand] = []
        var mode: DriveMode?
        var end = 0.0
        for block in blocks {
            let blockMode: DriveMode
            switch block {
            case .rom: blockMode = .romSequence
            case .stream: blockMode = .realtimeAmplitude
            }
            if blockMode != mode {
                commands.append(TimedCommand(time: block.start - cost, command: .prepare(blockMode)))
                mode = blockMode
            }
            switch block {
            case .rom(let item):
                commands.append(TimedCommand(time: item.time, command: .trigger(item.steps)))
                end = max(end, item.time + item.busy)
            case .stream(let span):
                renderer.render(stream.slice(span, evaluator: evaluator), over: span, into: &commands)
                end = max(end, span.end + brake)
            }
        }
        if let limit = capabilities.maximumContinuousDrive?.secondsValue {
            warnings += Self.continuousDriveWarnings(in: commands, limit: limit, end: end)
        }
        return (commands, end)
    }

    /// The stretches of `commands` that drive longer than `limit`, measured as the engine's
    /// `ContinuousDriveGuard` measures them while playing: from an amplitude written non-zero until
    /// one written 0, a ROM trigger or the end. Not from the streaming spans: a span's content may
    /// fall silent within it (a `.haptic` clip of 70 s whose amplitude returns to 0 every 30 s
    /// plays whole), and the warning said it would be cut.
    static func continuousDriveWarnings(in commands: [TimedCommand], limit: Double, end: Double) -> [ProgramWarning] {
        var warnings: [ProgramWarning] = []
        var driveStart: Double?
        func driveEnds(at time: Double) {
            if let start = driveStart, time - start > limit {
                warnings.append(ProgramWarning(time: start, message: "continuous drive of \(CompactNumber.text(time - start)) s exceeds the actuator's \(CompactNumber.text(limit)) s limit (max-continuous-drive-ms); the engine stops it there"))
            }
            driveStart = nil
        }
        for command in commands {
            switch command.command {
            case .amplitude(let level) where level == 0: driveEnds(at: command.time)
            case .amplitude: if driveStart == nil { driveStart = command.time }
            case .trigger, .stop: driveEnds(at: command.time)
            case .prepare, .frequency, .pcm: break
            }
        }
        driveEnds(at: end)
        return warnings
    }

    /// Cue groups and transients become ROM items; continuous events without a cue stream.
    private func romItemsAndStream(_ evaluator: PatternEvaluator, library: ROMLibrary, stream: inout StreamContent, warnings: inout [ProgramWarning]) -> [ROMItem] {
        let pattern = evaluator.pattern
        var items: [ROMItem] = []
        var cueGroups: [Int: (cue: ROMCue, indices: [Int])] = [:]
        var transientsByTime: [Double: [Int]] = [:]
        for (index, event) in pattern.events.enumerated() where event.type.isHaptic {
            if let cue = event.romCue {
                cueGroups[cue.group, default: (cue, [])].indices.append(index)
            } else if event.isEmphasis {
                add(index, of: evaluator, to: &stream)
            } else if event.type == .hapticTransient {
                transientsByTime[event.time, default: []].append(index)
            } else {
                stream.events.append(index)
            }
        }
        // Cues name their effects and play as named; transients get effects that fit around them.
        var budget = ROMDriveBudget(limit: capabilities.romLevelLimit)
        for group in cueGroups.values.sorted(by: { ($0.indices.first ?? 0) < ($1.indices.first ?? 0) }) {
            guard let steps = group.cue.steps(for: library) else { continue }
            let time = group.indices.map { pattern.events[$0].time }.min() ?? 0
            items.append(ROMItem(time: time, busy: group.cue.duration, steps: steps, eventIndices: group.indices))
            budget.add(steps, at: time)
        }
        let transients = transientsByTime.sorted(by: { $0.key < $1.key })
        for (position, (time, indices)) in transients.enumerated() {
            let level = DriveLevel.mix(indices.map { index in
                let impulse = evaluator.impulse(ofEventAt: index)
                return DriveLevel(intensity: impulse.intensity, sharpness: impulse.sharpness)
            })
            guard let nearest = ROMEffectTable.nearest(intensity: level.intensity, sharpness: level.sharpness) else {
                warnings.append(ProgramWarning(time: time, message: "transient of intensity \(CompactNumber.text(level.intensity)) too weak for a ROM effect; skipped"))
                continue
            }
            let share = position + 1 < transients.count ? transients[position + 1].key - time : ROMDriveBudget.window
            let fits = { (choice: ROMEffectChoice) in budget.allows(effect: choice.id, at: time, share: share) }
            guard let choice = fits(nearest) ? nearest : ROMEffectTable.nearest(intensity: level.intensity, sharpness: level.sharpness, allowed: fits) else {
                warnings.append(ProgramWarning(time: time, message: "transient skipped: no ROM effect fits the rated voltage with the effects around it"))
                continue
            }
            if choice != nearest {
                warnings.append(ProgramWarning(time: time, message: "transient played as \(choice.name) (\(choice.id)): \(nearest.name) (\(nearest.id)) would drive above the rated voltage"))
            }
            let steps: [SequencerStep] = [.effect(choice.id)]
            items.append(ROMItem(time: time, busy: options.romEffectDuration, steps: steps, eventIndices: indices))
            budget.add(steps, at: time)
        }
        // Dictionary order is random: sort fully so the same pattern always compiles the same way.
        return items.sorted { $0.time != $1.time ? $0.time < $1.time : ($0.eventIndices.first ?? 0) < ($1.eventIndices.first ?? 0) }
    }

    /// Moves ROM items that collide with streaming (including the mode switches around it) into
    /// the stream, until none collides; each move is a warning.
    private func resolveConflicts(
        _ romItems: inout [ROMItem], _ stream: inout StreamContent, evaluator: PatternEvaluator,
        joinGap: Double, cost: Double, brake: Double, warnings: inout [ProgramWarning]
    ) {
        var occupancy = StreamOccupancy(stream.spans(in: evaluator.pattern, joinGap: joinGap), joinGap: joinGap, before: cost, after: brake)
        let collides = { (item: ROMItem) in occupancy.collides(with: item.occupancy(modeSwitchCost: cost)) }
        let longest = romItems.lazy.map(\.busy).max() ?? 0
        var moved = [Bool](repeating: false, count: romItems.count)
        var conflicting = romItems.indices.filter { collides(romItems[$0]) }
        // All at once, then again: moved taps can lengthen spans and catch further triggers. Only
        // triggers near a span that grew can collide anew (the others did not collide before).
        while !conflicting.isEmpty {
            var added: [TimeSpan] = []
            for index in conflicting {
                moved[index] = true
                let item = romItems[index]
                warnings.append(ProgramWarning(time: item.time, message: "ROM effect (\(item.stepsDescription)) dropped while streaming; played as amplitude instead"))
                for eventIndex in item.eventIndices {
                    added.append(add(eventIndex, of: evaluator, to: &stream))
                }
            }
            for piece in added { occupancy.add(piece) }
            let grown = Set(added.compactMap { occupancy.index(holding: $0.start) })
            conflicting = Set(grown.flatMap { Self.indices(of: romItems, near: occupancy.busy(at: $0), longest: longest, cost: cost) })
                .filter { !moved[$0] && collides(romItems[$0]) }
                .sorted()
        }
        romItems = romItems.indices.filter { !moved[$0] }.map { romItems[$0] }
    }

    /// The indices of `items` (in order of time) whose occupancy may overlap `busy`: those
    /// starting from the `longest` time an item keeps the chip busy before it to the mode
    /// switch (`cost`) after it, with a margin for rounding (the caller checks each exactly).
    private static func indices(of items: [ROMItem], near busy: TimeSpan, longest: Double, cost: Double) -> Range<Int> {
        let from = busy.start - longest - 1e-9, to = busy.end + cost + 1e-9
        let low = items.partitionIndex { !($0.time < from) }
        var end = low
        while end < items.count, items[end].time <= to { end += 1 }
        return low..<end
    }
}
