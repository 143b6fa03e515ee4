import ActuatorHAL
import ActuatorHALLinux
import Foundation
import HardwareMocks
import XCTest

final class SoundFileEncoderTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hapticboard-encoder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testEachContainerWritesAFileLibsndfileReadsBack() throws {
        let samples: [Float] = [0, 0.25, -0.5, 1, -1, 2, -2]
        for container in SoundFileEncoder.Container.allCases where container != .oggVorbis {
            let url = folder.appendingPathComponent("level.\(container.fileExtension)")
            try SoundFileEncoder.write(samples: samples, channels: 1, sampleRate: 8000, container: container, to: url)
            // Out-of-range samples clip to the 16-bit limits instead of wrapping round.
            let largest: Float = 32767.0 / 32768
            XCTAssertEqual(try SoundFileDecoder().decode(path: url.path).samples, [0, 0.25, -0.5, largest, -1, largest, -1], "\(container)")
        }
        let url = folder.appendingPathComponent("level.ogg")
        try SoundFileEncoder.write(samples: [Float](repeating: 0, count: 800), channels: 2, sampleRate: 8000, container: .oggVorbis, to: url)
        let sound = try SoundFileDecoder().decode(path: url.path)
        XCTAssertEqual(sound.channels, 2)
        XCTAssertEqual(sound.frameCount, 400)
    }

    func testFailuresNameThePath() {
        let nowhere = folder.appendingPathComponent("missing/tone.flac")
        XCTAssertThrowsError(try SoundFileEncoder.write(samples: [0], channels: 1, sampleRate: 8000, container: .flac, to: nowhere)) { error in
            guard case .libsndfile(let path, .flac, _, let reason)? = error as? SoundFileEncodingError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, nowhere.path)
            XCTAssertFalse(reason.isEmpty)
            XCTAssertTrue("\(error)".hasPrefix("\(nowhere.path): cannot write 16-bit FLAC: "), "\(error)")
        }
        let ragged = folder.appendingPathComponent("ragged.wav")
        XCTAssertThrowsError(try SoundFileEncoder.write(samples: [0, 0, 0], channels: 2, sampleRate: 8000, container: .wav, to: ragged)) { error in
            XCTAssertEqual(error as? SoundFileEncodingError, .invalidLayout(path: ragged.path, reason: "3 samples are not whole frames of 2 channels"))
        }
        // FLAC holds at most 8 channels; libsndfile's format check refuses more before creating a file.
        let wide = folder.appendingPathComponent("wide.flac")
        XCTAssertThrowsError(try SoundFileEncoder.write(samples: [Float](repeating: 0, count: 9), channels: 9, sampleRate: 8000, container: .flac, to: wide)) { error in
            guard case .libsndfile(wide.path, .flac, _, _)? = error as? SoundFileEncodingError else { return XCTFail("\(error)") }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: wide.path))
    }
}
