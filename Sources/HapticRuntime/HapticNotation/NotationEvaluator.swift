/// Plays statements onto a timeline, following the timing rules of the public implementation:
/// at the top level (and inside a definition) a transient does not advance time, a rest advances by
/// its length and a block by its length; inside `sequence` and `loop` every item takes one slot.
struct NotationEvaluator {
    let source: NotationSource
    let limits: HapticNotation.Limits
    private(set) var events: [HapticEvent] = []
    private(set) var curves: [ParameterCurve] = []
    private(set) var parameters: [DynamicParameter] = []
    private(set) var warnings: [ContentWarning] = []
    private var steps = 0
    private var referenceDepth = 0

    init(source: NotationSource, limits: HapticNotation.Limits) {
        self.source = source
        self.limits = limits
    }

    /// Plays `statements` one after another from `start`; returns where time stands afterwards.
    mutating func play(_ statements: [NotationStatement], from start: Double) throws(HapticNotationError) -> Double {
        var time = start
        for statement in statements {
            time = try evaluate(statement, at: time, inSlot: false)
        }
        return time
    }

    /// Plays one statement at `start`; returns its end. In a slot a rest is silence and ends where it began.
    private mutating func evaluate(
        _ statement: NotationStatement, at start: Double, inSlot: Bool
    ) throws(HapticNotationError) -> Double {
        steps += 1
        guard steps <= limits.maximumEvaluationSteps else {
            throw fail(.tooMuchWork(limit: limits.maximumEvaluationSteps), at: statement.position)
        }
        switch statement {
        case .transient(let intensity, let sharpness, let position):
            try emitTransient(at: start, intensity: intensity, sharpness: sharpness, position: position)
            return start
        case .rest(let seconds, _):
            return inSlot ? start : start + seconds
        case .continuous(let block, let position):
            try emitContinuous(block, at: start, position: position)
            return start + block.duration
        case .sequence(let interval, let items, _):
            // Ends at the last slot, or later if the last item itself lasts (a continuous, a block).
            var end = start
            for (index, item) in items.enumerated() {
                let slot = start + Double(index) * interval
                end = max(slot, try evaluate(item, at: slot, inSlot: true))
            }
            return end
        case .loop(let count, let interval, let items, _):
            let iterationLength = Double(items.count) * interval
            for iteration in 0..<count {
                let iterationStart = start + Double(iteration) * iterationLength
                for (index, item) in items.enumerated() {
                    _ = try evaluate(item, at: iterationStart + Double(index) * interval, inSlot: true)
                }
            }
            return start + Double(count) * iterationLength
        case .ramp(let block, let position):
            try emitRamp(block, at: start, position: position)
            return start + block.duration
        case .reference(_, let body, let position):
            // Each level is a nested call here; a bound keeps long chains from exhausting the stack.
            guard referenceDepth < limits.maximumReferenceDepth else {
                throw fail(.referencesTooDeep(limit: limits.maximumReferenceDepth), at: position)
            }
            referenceDepth += 1
            defer { referenceDepth -= 1 }
            return try play(body, from: start)
        }
    }

    private mutating func emitTransient(
        at time: Double, intensity: Double, sharpness: Double, position: NotationPosition
    ) throws(HapticNotationError) {
        try append(HapticEvent(
            type: .hapticTransient, time: time,
            parameters: [EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness)]
        ), position: position)
    }

    /// One continuous event; an envelope becomes an intensity-control curve through (0, 0), (a·D, 1),
    /// (d·D, s), (r·D, s) and (D, 0): the release falls to silence at the end of the event. The
    /// control multiplies everything that plays after it too, so a dynamic parameter puts it back to
    /// 1 from the end on (at that instant the parameter, which started later, decides).
    private mutating func emitContinuous(
        _ block: ContinuousBlock, at start: Double, position: NotationPosition
    ) throws(HapticNotationError) {
        let duration = block.duration
        try append(HapticEvent(
            type: .hapticContinuous, time: start, duration: duration,
            parameters: [
                EventParameter(.hapticIntensity, block.intensity), EventParameter(.hapticSharpness, block.sharpness),
            ]
        ), position: position)
        guard let envelope = block.envelope else { return }
        curves.append(ParameterCurve(.hapticIntensityControl, time: start, controlPoints: [
            ControlPoint(time: 0, value: 0),
            ControlPoint(time: envelope.attack * duration, value: 1),
            ControlPoint(time: envelope.decay * duration, value: envelope.sustain),
            ControlPoint(time: envelope.release * duration, value: envelope.sustain),
            ControlPoint(time: duration, value: 0),
        ]))
        parameters.append(DynamicParameter(.hapticIntensityControl, value: 1, time: start + duration))
    }

    /// Transients every interval while time is short of the duration, then one at the duration with the
    /// end values. Times within `rampEndTolerance` of the end count as the end, so summed decimal
    /// intervals (10 × 0.1 s) do not add a stray pulse just before the final one.
    private mutating func emitRamp(
        _ block: RampBlock, at start: Double, position: NotationPosition
    ) throws(HapticNotationError) {
        var offset = 0.0
        var pulses = 0
        var clamped = false
        func level(_ transition: RampTransition, _ progress: Double) -> Double {
            let value = transition.value(at: progress)
            let limited = min(max(value, 0), 1)
            if limited != value { clamped = true }
            return limited
        }
        while offset < block.duration - HapticNotation.rampEndTolerance {
            pulses += 1
            guard pulses <= limits.maximumRampSteps else {
                throw fail(.tooManyRampSteps(limit: limits.maximumRampSteps), at: position)
            }
            let progress = block.curve.progress(at: offset / block.duration)
            try emitTransient(
                at: start + offset, intensity: level(block.intensity, progress),
                sharpness: level(block.sharpness, progress), position: position)
            let interval = block.interval.value(at: progress)
            guard interval > 0 else { throw fail(.rampIntervalNotPositive, at: position) }
            offset += interval
        }
        try emitTransient(
            at: start + block.duration, intensity: block.intensity.to, sharpness: block.sharpness.to,
            position: position)
        if clamped {
            warnings.append(source.warning(
                "the ramp's curve takes intensity or sharpness outside 0–1; those pulses are clamped",
                line: position.line, column: position.column))
        }
    }

    private mutating func append(_ event: HapticEvent, position: NotationPosition) throws(HapticNotationError) {
        guard events.count < limits.maximumEvents else {
            throw fail(.tooManyEvents(limit: limits.maximumEvents), at: position)
        }
        // Also catches times that overflowed to infinity through nested loops.
        guard event.time + (event.duration ?? 0) <= limits.maximumDuration else {
            throw fail(.patternTooLong(limit: limits.maximumDuration), at: position)
        }
        events.append(event)
    }

    private func fail(_ kind: HapticNotationError.Kind, at position: NotationPosition) -> HapticNotationError {
        source.error(kind, line: position.line, column: position.column)
    }
}
