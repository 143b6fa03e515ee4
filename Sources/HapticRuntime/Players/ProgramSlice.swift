/// A command of a program as a player schedules it: `time` is the pattern time by which it must
/// have taken effect (for `.prepare`, the time its mode's first event needs it, not when it is issued).
struct SlicedCommand: Sendable, Hashable {
    var time: Double
    var command: ActuatorCommand
}

/// The part of a compiled program that plays from an offset (start, seek, resume, loop), with the
/// state in force at the offset carried over so the output is right from the first moment.
enum ProgramSlice {
    /// Commands of `program` taking effect in `offset..<end` (end = nil: to the program's end).
    ///
    /// - The mode prepared before `offset` is prepared again by `offset` (a no-op when it still is).
    /// - The amplitude and drive frequency in force at `offset` are re-sent at `offset`; a zero
    ///   amplitude is not, since nothing is playing.
    /// - ROM triggers before `offset` are not replayed: a click is over or, when cut, not worth
    ///   starting late.
    /// - `.stop` is left out when `includeStop` is false (a loop continues instead of ending).
    static func commands(of program: ActuatorProgram, from offset: Double, to end: Double?, modeSwitchCost: Double, includeStop: Bool) -> [SlicedCommand] {
        var carriedMode: ActuatorCommand?
        var carriedFrequency: ActuatorCommand?
        var carriedAmplitude: Double?
        var result: [SlicedCommand] = []
        result.reserveCapacity(program.commands.count)
        for timed in program.commands {
            var time = timed.time
            if case .prepare = timed.command { time += modeSwitchCost }
            if time < offset {
                switch timed.command {
                case .prepare: carriedMode = timed.command
                case .frequency: carriedFrequency = timed.command
                case .amplitude(let value): carriedAmplitude = value
                case .trigger, .pcm, .stop: break
                }
                continue
            }
            if let end, time >= end { continue }
            if case .stop = timed.command, !includeStop { continue }
            result.append(SlicedCommand(time: time, command: timed.command))
        }
        var carried: [SlicedCommand] = []
        if let carriedMode { carried.append(SlicedCommand(time: offset, command: carriedMode)) }
        if let carriedAmplitude, carriedAmplitude != 0 {
            if let carriedFrequency { carried.append(SlicedCommand(time: offset, command: carriedFrequency)) }
            carried.append(SlicedCommand(time: offset, command: .amplitude(carriedAmplitude)))
        }
        return carried.isEmpty ? result : carried + result
    }
}
