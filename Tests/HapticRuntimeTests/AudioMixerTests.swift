import ActuatorHAL
import HardwareMocks
import XCTest
@testable import HapticRuntime

final class AudioMixerTests: XCTestCase {
    private func constant(_ value: Float, frames: Int, key: String? = nil) -> AudioVoice {
        AudioVoice(key: key, channels: 1, samples: [Float](repeating: value, count: frames))
    }

    private func sine(_ frequency: Double, amplitude: Double, frames: Int, rate: Int = 48_000) -> AudioVoice {
        AudioVoice(key: nil, channels: 1, samples: (0..<frames).map { Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / Double(rate))) })
    }

    func testOverlappingVoicesAdd() {
        var mixer = AudioMixer(channels: 1, sampleRate: 48_000)
        mixer.add(constant(0.25, frames: 100), atFrame: 0)
        mixer.add(constant(0.25, frames: 100), atFrame: 50)
        let output = mixer.render(frames: 200)
        XCTAssertEqual(output[10], Int16((0.25 * 32767).rounded()))
        XCTAssertEqual(output[60], Int16((0.5 * 32767).rounded()))
        XCTAssertEqual(output[120], Int16((0.25 * 32767).rounded()))
        XCTAssertEqual(output[160], 0)
        XCTAssertEqual(mixer.activeVoiceCount, 0, "finished voices are dropped")
    }

    func testARetriggeredSoundRestartsFromItsBeginning() {
        var mixer = AudioMixer(channels: 1, sampleRate: 48_000)
        let ramp = AudioVoice(key: "key C4", channels: 1, samples: (0..<1000).map { Float($0) / 2000 })
        mixer.add(ramp, atFrame: 0)
        mixer.add(ramp, atFrame: 400)
        let output = mixer.render(frames: 1500).map { Double($0) / 32767 }
        XCTAssertEqual(output[399], 399.0 / 2000, accuracy: 1e-4)
        // After the 1 ms (48-frame) fade of the cut voice, only the restarted one sounds.
        for frame in [450, 700, 1399] {
            XCTAssertEqual(output[frame], Double(frame - 400) / 2000, accuracy: 1e-4, "frame \(frame)")
        }
        XCTAssertEqual(output[1400], 0)
        // During the fade the old voice falls away smoothly rather than stopping dead.
        let fade = (400..<448).map { output[$0] - Double($0 - 400) / 2000 }
        XCTAssertTrue(zip(fade, fade.dropFirst()).allSatisfy { $1 <= $0 + 1e-4 })
    }

    func testDifferentKeysAndUnkeyedVoicesOverlap() {
        var mixer = AudioMixer(channels: 1, sampleRate: 48_000)
        mixer.add(constant(0.1, frames: 100, key: "a"), atFrame: 0)
        mixer.add(constant(0.1, frames: 100, key: "b"), atFrame: 10)
        mixer.add(constant(0.1, frames: 100), atFrame: 20)
        mixer.add(constant(0.1, frames: 100), atFrame: 20)
        XCTAssertEqual(Double(mixer.render(frames: 50)[30]) / 32767, 0.4, accuracy: 1e-4)
    }

    func testTheLimiterKeepsManyVoicesUnderTheCeilingWithoutAudibleSteps() throws {
        var mixer = AudioMixer(channels: 1, sampleRate: 48_000)
        for _ in 0..<8 { mixer.add(sine(440, amplitude: 0.9, frames: 9600), atFrame: 960) }
        let output = mixer.render(frames: 12_000).map { Double($0) / 32767 }
        let ceiling = Double(mixer.limiter.ceiling)
        XCTAssertLessThanOrEqual(SignalMeasurement.peak(of: output, in: 0..<output.count), ceiling + 1e-4)
        XCTAssertGreaterThan(SignalMeasurement.peak(of: output, in: 2000..<3000), 0.95, "limited to the ceiling, not far below it")
        // Still a clean 440 Hz sine at the ceiling: the gain holds steady instead of flattening the
        // tops (a clipped wave would sit at the ceiling most of each cycle, a pure sine 4 % of it).
        let body = Array(output[2000..<10_000])
        let pure = (2000..<10_000).map { ceiling * sin(2 * Double.pi * 440 * Double($0 - 960) / 48_000) }
        XCTAssertLessThan(zip(body, pure).map { abs($0 - $1) }.max() ?? 1, 0.002)
        let atPeak = body.filter { abs($0) > ceiling - 0.002 }.count
        XCTAssertLessThan(atPeak, body.count / 20)
        // The gain is already down when the first peak arrives: the onset is not clipped either.
        XCTAssertLessThanOrEqual(SignalMeasurement.peak(of: output, in: 960..<1100), ceiling + 1e-4)
    }

    func testQuietMixesPassUnchangedAndMutingSilences() {
        var mixer = AudioMixer(channels: 2, sampleRate: 48_000)
        mixer.add(AudioVoice(key: nil, channels: 2, samples: [0.5, -0.5, 0.25, -0.25]), atFrame: 0)
        XCTAssertEqual(mixer.render(frames: 2), [16384, -16384, 8192, -8192])
        mixer.add(AudioVoice(key: nil, channels: 2, samples: [0.5, 0.5]), atFrame: 2)
        mixer.isMuted = true
        XCTAssertEqual(mixer.render(frames: 1), [0, 0])
        XCTAssertFalse(mixer.add(AudioVoice(key: nil, channels: 1, samples: [1]), atFrame: 3), "a voice for another layout is refused")
    }
}
