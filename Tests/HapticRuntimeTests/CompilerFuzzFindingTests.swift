import ActuatorHAL
import ActuatorHALLinux
import Foundation
import XCTest
@testable import HapticRuntime

/// Inputs the `audio-analysis` fuzz target (Fuzz/, docs/fuzzing.md) found, replayed through the
/// same calls, and the compiler rule each broke.
final class CompilerFuzzFindingTests: XCTestCase {
    static let findings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FuzzFindings")

    /// A continuous event whose release runs past the longest program: the program was cut at the
    /// limit with a stop there, but the release's samples after it stayed, so the stop was not
    /// the last command (and amplitude > 0 could follow it).
    func testATailPastTheLongestProgramIsCutSoTheProgramEndsWithStop() {
        let pattern = HapticPattern(events: [
            HapticEvent(type: .hapticContinuous, time: 0.5, duration: 1, parameters: [EventParameter(.hapticIntensity, 1), EventParameter(.releaseTime, 0.3)]),
        ])
        let compiler = PatternCompiler(capabilities: EngineRig().actuator.capabilities, options: CompilerOptions(maximumDuration: 1))
        let program = compiler.compile(pattern)
        XCTAssertEqual(program.commands.last, TimedCommand(time: 1, command: .stop))
        XCTAssertTrue(program.commands.allSatisfy { $0.time <= 1 }, "\(program)")
        XCTAssertEqual(program.duration, 1)
    }

    /// The fuzz input: 1,280 samples at 1 Hz (21 minutes, longer than the compiler's 600 s),
    /// analysed into a clip whose envelope's release ran past the limit.
    func testTheAnalysedTwentyOneMinuteSoundCompilesToAProgramEndingWithStop() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.findings.appendingPathComponent("audio-analysis-21-minutes-at-1hz")))
        // The target's layout: rate selector 0 (1 Hz), format 0 (16-bit samples), then the samples.
        XCTAssertEqual(Array(bytes.prefix(2)), [0, 0])
        let samples = stride(from: 2, to: bytes.count - 1, by: 2).map { Float(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)) / 32_768 }
        let clip = SoundAnalyzer.clip(for: MonoSound(sampleRate: 1, samples: samples), source: "fuzz") { RealFFT(size: $0) }
        XCTAssertNoThrow(try HapticClip.read(text: clip.text, file: "analysed.haptic"))
        let program = PatternCompiler(capabilities: EngineRig().actuator.capabilities).compile(clip.pattern)
        XCTAssertEqual(program.commands.last?.command, .stop, "\(program.commands.suffix(3))")
        XCTAssertLessThanOrEqual(program.commands.last?.time ?? 0, CompilerOptions().maximumDuration)
    }
    /// The `haptic` target's input: the `emphasis-clip.haptic` seed with its last amplitude point
    /// moved to 220 s and its frequency points to 1 s (rebuilt from the finding's description; the
    /// fuzzer's own 527-byte file was not kept). The clip is valid: a 220 s hold at 0.25. Compiling
    /// it took longer than the target's 10 s timeout in the sanitized debug build, because each of
    /// the 220,000 samples per actuator looked its event's parameters up again and gathered the
    /// sounding levels into a new array. The replay checks the program it must still compile to.
    func testAClipHeldForTwoHundredTwentySecondsCompilesToOneHoldAndAStop() throws {
        let file = Self.findings.appendingPathComponent("haptic-envelope-point-at-220-seconds.haptic")
        let content = try ContentLoader.parse(String(contentsOf: file, encoding: .utf8), format: .haptic, file: file.lastPathComponent)
        XCTAssertEqual(content.pattern.duration, 220, accuracy: 1e-9)
        let program = PatternCompiler(capabilities: EngineRig().actuator.capabilities).compile(content.pattern)
        let hold = program.commands.filter { $0.time > 1 && $0.time < 220 }
        XCTAssertEqual(hold, [], "nothing changes while the clip holds 0.25")
        XCTAssertEqual(program.commands.last?.command, .stop)
        XCTAssertEqual(program.commands.last?.time ?? 0, 220, accuracy: 0.01)
    }
    /// The `haptic` target's first crash once it had coverage (a 10-minute release run): the
    /// emphasis seed with its last amplitude point at 1.78e26 s (the committed input is that
    /// file with its description made plain UTF-8 again; the fuzzer's own had bytes that were not,
    /// which the command line refuses before reading). The order rule let it through, and the
    /// clip's one continuous event, split at 30 s, needed more pieces than `Int` counts: a trap in
    /// `splitAtContinuousLimit`, which `hapticboard inspect` and `play` hit too (exit 132). The
    /// reader now refuses a clip longer than a day (`HapticClip.longestDuration`) at the time
    /// that makes it so.
    func testAClipLastingLongerThanADayIsRefusedWhereItsLastTimeIs() throws {
        let file = Self.findings.appendingPathComponent("haptic-envelope-point-at-1e26-seconds.haptic")
        XCTAssertThrowsError(try ContentLoader.parse(String(contentsOf: file, encoding: .utf8), format: .haptic, file: "clip.haptic")) { error in
            guard case .haptic(let clipError) = error as? ContentLoadingError,
                  case .excessiveDuration(let location, let keyPath, let value, let limit) = clipError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual("\(location)", "clip.haptic:15:23")
            XCTAssertEqual("\(keyPath)", "signals.continuous.envelopes.amplitude[9].time")
            XCTAssertEqual(value, 1.7777777777777777e26)
            XCTAssertEqual(limit, HapticClip.longestDuration)
        }
    }

    /// `splitAtContinuousLimit` is public, and patterns built in code reach it without a reader:
    /// an event longer than any reader accepts comes back whole instead of trapping.
    func testSplittingAnEventLongerThanAnyReaderAcceptsReturnsItWhole() {
        for duration in [HapticClip.longestDuration + 1, 1.7777777777777777e26, .infinity] {
            let event = HapticEvent(type: .hapticContinuous, time: 0, duration: duration)
            XCTAssertEqual(event.splitAtContinuousLimit(), [event], "\(duration)")
        }
        let day = HapticEvent(type: .hapticContinuous, time: 0, duration: HapticClip.longestDuration)
        XCTAssertEqual(day.splitAtContinuousLimit().count, 2_880)
    }
}
