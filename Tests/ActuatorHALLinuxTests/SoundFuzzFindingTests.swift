import ActuatorHAL
import ActuatorHALLinux
import Foundation
import XCTest

/// Inputs the `sound` fuzz target (Fuzz/, docs/fuzzing.md) found, replayed through the same calls.
final class SoundFuzzFindingTests: XCTestCase {
    static let findings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FuzzFindings")

    /// A WAV at 1 Hz (8 channels, a data chunk claiming 2 GB) decodes, but libsamplerate cannot
    /// bring 1 Hz to a device's 48 kHz (beyond 256×): the error named the rates and not the file,
    /// so an AHAP with several AudioCustom files did not say which one.
    func testARateThatCannotBeConvertedNamesTheFile() throws {
        let path = Self.findings.appendingPathComponent("sound-1hz-lying-length.wav").path
        let decoder = SoundFileDecoder()
        XCTAssertEqual(try decoder.decode(path: path).sampleRate, 1)
        XCTAssertThrowsError(try decoder.decode(path: path, sampleRate: 48_000)) { error in
            guard case .decoding(let named, let reason)? = error as? SoundFileError else { return XCTFail("\(error)") }
            XCTAssertEqual(named, path)
            XCTAssertTrue(reason.contains("cannot resample 1 Hz to 48000 Hz"), reason)
            XCTAssertTrue("\(error)".hasPrefix("\(path): "), "\(error)")
        }
    }
}
