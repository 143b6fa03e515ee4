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
}
