import ActuatorHAL
import Foundation
import HardwareMocks
import XCTest
@testable import HapticRuntime

/// Piano's API as its README spells it, and UIKit's feedback generators, on the simulated board.
final class PianoSeedAPITests: XCTestCase {
    override func tearDown() {
        Piano.use(nil)
        Piano.errorHandler = { _ in }
    }

    func testTheStaticAPIPlaysTheSeedsSymphonyOnThePianoInUse() throws {
        let rig = EngineRig()
        Piano.use(HapticPiano(engine: rig.engine))
        let done = Collected<Bool>()
        let symphony: [Note] = [
            .hapticFeedback(.impact(.light)),
            .waitUntilFinished,
            .hapticFeedback(.impact(.heavy)),
            .wait(0.2),
            .hapticFeedback(.notification(.success)),
        ]
        🎹.play(symphony) { done.append(true) }
        rig.run(until: 2)
        XCTAssertEqual(rig.goTimes.count, 3, "three ROM sequences started")
        XCTAssertEqual(done.values, [true])
        Piano.wakeTapticEngine()
        Piano.prepareTapticEngine()
        XCTAssertEqual(rig.actuator.powerState, .ready)
        Piano.putTapticEngineToSleep()
        XCTAssertEqual(rig.actuator.powerState, .off)
    }

    func testWithoutAPianoTheStaticCallsReportInsteadOfCrashing() {
        let errors = Collected<String>()
        Piano.errorHandler = { errors.append("\($0)") }
        Piano.play([.hapticFeedback(.selection)])
        Piano.cancel()
        XCTAssertEqual(errors.values.count, 2)
        XCTAssertTrue(errors.values[0].contains("Piano.use"), errors.values[0])
    }

    func testFeedbackGeneratorsPlayTheirNotesAndOverlap() throws {
        let rig = EngineRig()
        let impact = UIImpactFeedbackGenerator(style: .rigid, engine: rig.engine)
        impact.prepare()
        XCTAssertEqual(rig.actuator.powerState, .ready, "prepare readies the actuator ahead of the gesture")
        impact.impactOccurred()
        rig.run(until: 0.05)
        // The rigid impact is Sharp Click 100 % (effect 4).
        XCTAssertEqual(rig.board.chip.register(0x04), 4)
        NotificationFeedbackGenerator(engine: rig.engine).notificationOccurred(.error)
        rig.run(until: 0.1)
        XCTAssertEqual(rig.board.chip.register(0x04), 1, "error is Piano's failure: four fading clicks from Strong Click 100 %")
        SelectionFeedbackGenerator(engine: rig.engine).selectionChanged()
        rig.run(until: 1)
        XCTAssertEqual(rig.board.chip.register(0x04), 24, "a selection tick")
        XCTAssertEqual(rig.goTimes.count, 3)
    }

    func testAnImpactAtPartIntensityPlaysItsEventScaled() throws {
        // On a chip with ROM, the compiler picks the library's click for the scaled level: a
        // weaker one than heavy's Strong Click 100 %.
        let rom = EngineRig()
        ImpactFeedbackGenerator(style: .heavy, engine: rom.engine).impactOccurred(intensity: 0.5)
        rom.run(until: 0.5)
        XCTAssertEqual(rom.goTimes.count, 1)
        XCTAssertNotEqual(rom.board.chip.register(0x04), 1)
        // Without ROM, the event streams at the scaled level: heavy's event is intensity 1.0,
        // sharpness 0.6, so half intensity drives 0.5 × (0.8 + 0.2 × 0.6).
        let streamed = EngineRig(variant: .drv2604)
        try streamed.engine.start()
        try streamed.engine.wakeActuators()
        ImpactFeedbackGenerator(style: .heavy, engine: streamed.engine).impactOccurred(intensity: 0.5)
        streamed.run(until: 0.5)
        let peak = streamed.board.chip.drive.changes.map(\.amplitude).max() ?? 0
        XCTAssertEqual(peak, 0.5 * 0.92, accuracy: 0.02)
    }

    func testPianoSoundsByTheSeedsSpellings() {
        XCTAssertEqual(Note.Sound.asset(name: "acapella").waveformPath, "acapella")
        XCTAssertEqual(Note.Sound.file(name: "Beep", extension: "wav").waveformPath, "Beep.wav")
        XCTAssertEqual(Note.Sound.named("beep one.wav"), .file(name: "beep one", extension: "wav"))
        XCTAssertEqual(Note.Sound.named("chime"), .asset(name: "chime"))
        XCTAssertEqual(Note.Sound.url(URL(fileURLWithPath: "/usr/share/sounds/x.oga")).waveformPath, "/usr/share/sounds/x.oga")
    }
}
