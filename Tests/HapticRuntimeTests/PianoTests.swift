import ActuatorHAL
import Foundation
import HardwareMocks
import XCTest
@testable import HapticRuntime

final class PianoTests: XCTestCase {
    /// The note's program compiled independently of the engine, as the engine compiles it.
    private func compiledDuration(of note: Note, on actuator: any Actuator) -> Double {
        var options = CompilerOptions()
        options.modeSwitchCost = actuator.budget(for: .prepare)
        return PatternCompiler(capabilities: actuator.capabilities, options: options).compile(HapticPattern(notes: [note])).duration
    }

    func testWaitUntilFinishedStartsAtTheCompiledEnd() throws {
        let rig = EngineRig()
        let piano = HapticPiano(engine: rig.engine)
        let first = Note.hapticFeedback(.notification(.failure))
        try piano.play([first, .waitUntilFinished, .hapticFeedback(.impact(.heavy))])
        rig.run(until: 3)
        let schedule = piano.schedule
        XCTAssertEqual(schedule.count, 2)
        XCTAssertEqual(schedule[1].start, schedule[0].end)
        XCTAssertEqual((schedule[0].end - schedule[0].start).secondsValue, compiledDuration(of: first, on: rig.actuator), accuracy: 1e-6)
        let go = rig.goTimes
        XCTAssertEqual(go.count, 2)
        for (time, note) in zip(go, schedule) {
            XCTAssertLessThanOrEqual(abs((time - note.start).secondsValue), oneWrite.secondsValue, "\(note.note)")
        }
    }

    func testWaitUntilFinishedFollowsTheProgramNotTheNoteTable() throws {
        // Programs are cut at 0.3 s: the failure note (0.5 s in the note table) really ends at 0.3 s.
        var options = CompilerOptions()
        options.maximumDuration = 0.3
        let rig = EngineRig(compilerOptions: options)
        let piano = HapticPiano(engine: rig.engine)
        let first = Note.hapticFeedback(.notification(.failure))
        try piano.play([first, .waitUntilFinished, .hapticFeedback(.impact(.heavy))])
        rig.run(until: 3)
        let schedule = piano.schedule
        XCTAssertEqual(try XCTUnwrap(NoteMapping.mapping(for: first)).duration, 0.5)
        XCTAssertEqual((schedule[1].start - schedule[0].start).secondsValue, 0.3, accuracy: 1e-9)
        let go = rig.goTimes
        XCTAssertEqual(go.count, 2)
        XCTAssertEqual((go[1] - go[0]).secondsValue, 0.3, accuracy: 1e-6)
    }

    func testWaitMovesTheNextNoteOnAndCompletionFollowsTheLastEnd() throws {
        let rig = EngineRig()
        let piano = HapticPiano(engine: rig.engine)
        let done = Collected<MonotonicInstant>()
        let clock = rig.board.clock
        try piano.play([.hapticFeedback(.impact(.light)), .wait(0.5), .hapticFeedback(.selection)]) { done.append(clock.now) }
        XCTAssertTrue(rig.engine.isRunning, "play starts the engine")
        rig.run(until: 3)
        let schedule = piano.schedule
        XCTAssertEqual((schedule[1].start - schedule[0].start).secondsValue, 0.5, accuracy: 1e-9)
        XCTAssertEqual(rig.goTimes.count, 2)
        XCTAssertEqual(done.values.count, 1)
        XCTAssertEqual(try XCTUnwrap(done.values.first).seconds, schedule[1].end.seconds, accuracy: 0.001)
    }

    func testCancelDropsTheRestWithoutCompletion() throws {
        let rig = EngineRig()
        let piano = HapticPiano(engine: rig.engine)
        let done = Collected<Bool>()
        try piano.play([.hapticFeedback(.impact(.light)), .wait(0.5), .hapticFeedback(.impact(.heavy))]) { done.append(true) }
        let firstStart = try XCTUnwrap(piano.schedule.first).start
        rig.run(until: firstStart.seconds + 0.2)
        try piano.cancel()
        rig.run(until: 3)
        XCTAssertEqual(rig.goTimes.count, 1)
        XCTAssertTrue(done.values.isEmpty)
        XCTAssertEqual(rig.board.chip.register(0x0C), 0)
    }

    func testExplicitWakePrepareAndSleep() throws {
        let rig = EngineRig()
        let piano = HapticPiano(engine: rig.engine)
        try piano.wake()
        XCTAssertEqual(rig.actuator.powerState, .standby)
        try piano.prepare()
        XCTAssertEqual(rig.actuator.powerState, .ready)
        try piano.sleep()
        XCTAssertEqual(rig.actuator.powerState, .off)
        // And by the seed's names.
        try piano.wakeTapticEngine()
        try piano.prepareTapticEngine()
        try piano.putTapticEngineToSleep()
        XCTAssertEqual(rig.engine.powerTransitions.map(\.report.transition), [.wake, .prepare, .sleep, .wake, .prepare, .sleep])
        XCTAssertTrue(rig.engine.powerTransitions.allSatisfy { !$0.automatic })
    }
}
