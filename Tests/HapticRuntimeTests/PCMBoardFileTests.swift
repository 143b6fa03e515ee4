import ActuatorHAL
import BoardFiles
import Foundation
import ActuatorHALLinux
import HardwareMocks
import XCTest
@testable import HapticRuntime

final class PCMBoardFileTests: XCTestCase {
    private let board = """
        board: pcm
        buses: []
        actuators:
          - name: grips
            compatible: pcm-actuator
            device: hw:CARD=Controller,DEV=0
            channels: 4
            channel-map: [3, 4]
            actuator-mode: voice-coil
            resonant-frequency-hz: 160
            max-amplitude: 0.8
        audio:
          device: controller_sound
          channels: 2

        """

    private func problems(in text: String) throws -> [String] {
        BoardRules(file: try BoardFile.parse(text, path: "pcm.yml")).problems().map(\.description)
    }

    func testAPCMActuatorBecomesItsConfiguration() throws {
        let file = try BoardFile.parse(board, path: "pcm.yml")
        XCTAssertEqual(try problems(in: board), [])
        let configuration = try file.pcmActuatorConfiguration(forActuatorAt: 0)
        XCTAssertEqual(configuration.kind, .voiceCoil)
        XCTAssertEqual(configuration.format, PCMFormat(sampleRate: 48_000, channels: 4, periodFrames: 128))
        XCTAssertEqual(configuration.channelMap, try PCMChannelMap(deviceChannels: 4, channels: [2, 3]))
        XCTAssertEqual(configuration.resonantFrequency, 160)
        XCTAssertEqual(configuration.maximumAmplitude, 0.8)
        XCTAssertEqual(file.description.audio?.output.device, "controller_sound")
    }

    func testPCMProblemsAreLocatedAtTheirKeys() throws {
        let bad = board
            .replacingOccurrences(of: "channel-map: [3, 4]", with: "channel-map: [3, 5]\n    vib-rated-mv: 2000")
            .replacingOccurrences(of: "max-amplitude: 0.8", with: "max-amplitude: 0")
            .replacingOccurrences(of: "device: controller_sound", with: "device: hw:CARD=Controller,DEV=0")
        XCTAssertEqual(try problems(in: bad), [
            "pcm.yml:8:5: actuators[0].channel-map: channel 5 is not one of the device's 4 channels (1-4)",
            "pcm.yml:9:5: actuators[0].vib-rated-mv: 'vib-rated-mv' is for DRV260x chips; a pcm-actuator is driven through its ALSA 'device' (use max-amplitude for its drive level)",
            "pcm.yml:12:5: actuators[0].max-amplitude: expected a share of full scale in (0, 1], not 0.0",
            "pcm.yml:14:3: audio.device: device 'hw:CARD=Controller,DEV=0' is already used by 'grips': each output opens its own stream, so give each an ALSA dshare PCM over the device (one per channel group) instead",
        ])
    }

    func testAChannelListWithABaseSixtyNumberIsRefused() throws {
        let bad = board.replacingOccurrences(of: "channel-map: [3, 4]", with: "channel-map: [3, 1:0:0:0:0:0:0:0:0:0:0:0]")
        XCTAssertEqual(try problems(in: bad), [
            "pcm.yml:8:5: actuators[0].channel-map: '1:0:0:0:0:0:0:0:0:0:0:0' is not a number here: write it in decimal (YAML 1.1 would read a number with colons in base 60, 1:30 as 90)",
        ])
    }

    func testAnLRANeedsItsResonanceAndDeviceKeysAreRequired() throws {
        let lra = board.replacingOccurrences(of: "actuator-mode: voice-coil\n    resonant-frequency-hz: 160", with: "actuator-mode: LRA")
        XCTAssertEqual(try problems(in: lra), ["pcm.yml:4:5: actuators[0]: an LRA needs resonant-frequency-hz: it is driven by a sine at that frequency"])
        let noChannels = board.replacingOccurrences(of: "    channels: 4\n", with: "")
        XCTAssertEqual(try problems(in: noChannels).first, "pcm.yml:4:5: actuators[0]: missing required key 'channels'")
    }

    func testTheSoundOutputTakesNoChannelMapOrAmplitudeCap() throws {
        let bad = board.replacingOccurrences(of: "  channels: 2\n", with: "  channels: 2\n  channel-map: [1, 2]\n  max-amplitude: 0.5\n")
        XCTAssertEqual(try problems(in: bad), [
            "pcm.yml:15:3: audio.channel-map: sound plays on the device's first two channels; to use others, point 'device' at an ALSA dshare PCM bound to them",
            "pcm.yml:16:3: audio.max-amplitude: max-amplitude is for pcm-actuators; set the sound level with AudioVolume or the mixer (alsamixer)",
        ])
    }

    func testOutputsOpenTheirALSADevicesWhenUsed() throws {
        let missing = board.replacingOccurrences(of: "hw:CARD=Controller,DEV=0", with: "hw:CARD=HapticboardNoSuchCard,DEV=0")
            .replacingOccurrences(of: "device: controller_sound", with: "device: hw:CARD=HapticboardNoSoundCard,DEV=0")
        let opened = try Board(yaml: missing, source: "pcm.yml").open(on: LinuxBoardHardware())
        defer { opened.close() }
        let actuator = try XCTUnwrap(opened.actuator(named: "grips")?.actuator)
        XCTAssertEqual(actuator.powerState, .off, "nothing is opened until the actuator wakes")
        XCTAssertThrowsError(try actuator.wake()) { error in
            guard case .open(let device, _, _)? = error as? PCMError else { return XCTFail("\(error)") }
            XCTAssertEqual(device, "hw:CARD=HapticboardNoSuchCard,DEV=0")
        }
        XCTAssertThrowsError(try opened.openSoundOutput(soundsIn: URL(fileURLWithPath: "."))) { error in
            guard case .open(let device, _, _)? = error as? PCMError else { return XCTFail("\(error)") }
            XCTAssertEqual(device, "hw:CARD=HapticboardNoSoundCard,DEV=0")
        }
        let silent = try Board(yaml: board.components(separatedBy: "audio:")[0], source: "pcm.yml").open(on: SimulatedBoardHardware())
        XCTAssertNil(try silent.openSoundOutput(soundsIn: URL(fileURLWithPath: ".")))
    }
}
