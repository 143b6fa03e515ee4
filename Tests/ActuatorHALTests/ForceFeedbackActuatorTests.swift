import SystemPackage
import XCTest
@testable import ActuatorHAL

/// A force-feedback device whose requests can fail, as an evdev node's ioctls and writes do: what
/// plays is what it was last told (the effect hapticboard drives is endless, so it plays until
/// stopped or erased).
private final class FlakyForceFeedbackDevice: ForceFeedbackSink {
    let name = "pad"
    let path = "/dev/input/event7"
    let capabilities = ForceFeedbackCapabilities(effectTypes: [.rumble], waveforms: [], supportsGain: true, effectSlots: 16)
    private(set) var stored: Set<Int16> = []
    private(set) var playing: Set<Int16> = []
    /// Requests still to fail with EIO: the next `failures` of them.
    var failures = 0
    /// Every request fails with ENODEV from now on; what it held went with it.
    var isGone = false {
        didSet { if isGone { close() } }
    }

    private func request(_ operation: String) throws(ForceFeedbackError) {
        if isGone { throw .deviceGone(device: path) }
        guard failures > 0 else { return }
        failures -= 1
        throw .request(device: path, operation: operation, errno: .ioError)
    }

    func upload(_ effect: ForceFeedbackEffect) throws(ForceFeedbackError) -> Int16 {
        try request("EVIOCSFF")
        let id = effect.id >= 0 ? effect.id : Int16((0..<16).first { !stored.contains(Int16($0)) } ?? 0)
        stored.insert(id)
        return id
    }

    func erase(effectID id: Int16) throws(ForceFeedbackError) {
        try request("EVIOCRMFF")
        // The kernel stops an effect before erasing it.
        playing.remove(id)
        stored.remove(id)
    }

    func play(effectID id: Int16, count: Int32) throws(ForceFeedbackError) {
        try request("EV_FF")
        if count > 0 { playing.insert(id) } else { playing.remove(id) }
    }

    func setGain(_ gain: UInt16) throws(ForceFeedbackError) { try request("FF_GAIN") }
    func checkPresent() throws(ForceFeedbackError) { if isGone { throw .deviceGone(device: path) } }
    func close() { playing = []; stored = [] }
}

final class ForceFeedbackActuatorTests: XCTestCase {
    private func drivingActuator() throws -> (ForceFeedbackActuator, FlakyForceFeedbackDevice) {
        let device = FlakyForceFeedbackDevice()
        let actuator = try ForceFeedbackActuator(name: "rumble", sink: device, configuration: .init())
        try actuator.setAmplitude(0.8)
        XCTAssertFalse(device.playing.isEmpty)
        return (actuator, device)
    }

    /// The engine makes an actuator safe with stop, then standby: when the first stop's request
    /// failed (EIO), the actuator must still know its endless effect plays, so the stop is tried
    /// again instead of being skipped as done.
    func testAStopThatFailedIsTriedAgainNotTakenAsDone() throws {
        let (actuator, device) = try drivingActuator()
        device.failures = 1
        XCTAssertThrowsError(try actuator.stop())
        try actuator.stop()
        XCTAssertTrue(device.playing.isEmpty, "the effect still plays after a failed stop and a second one")
        try actuator.setAmplitude(0.5)
        device.failures = 1
        XCTAssertThrowsError(try actuator.stop())
        try actuator.standby()
        XCTAssertTrue(device.playing.isEmpty, "standby after a failed stop left the effect playing")
        XCTAssertEqual(actuator.powerState, .standby)
    }

    /// Sleep lets the slot go even when the stop before it fails: erasing stops the effect too, and
    /// an actuator whose device is gone ends off, so the next wake uploads afresh.
    func testSleepErasesTheEffectWhenTheStopFails() throws {
        let (actuator, device) = try drivingActuator()
        device.failures = 1
        XCTAssertThrowsError(try actuator.sleep())
        XCTAssertTrue(device.playing.isEmpty, "the stop failed and nothing else was tried: the effect plays on")
        XCTAssertTrue(device.stored.isEmpty)
        XCTAssertEqual(actuator.powerState, .off)
        XCTAssertNil(actuator.effectID)

        // Both the stop and the erase refused: the effect is still the actuator's, and the next
        // sleep stops and erases it.
        let (refusing, device2) = try drivingActuator()
        device2.failures = 2
        XCTAssertThrowsError(try refusing.sleep())
        XCTAssertFalse(device2.playing.isEmpty)
        XCTAssertNotEqual(refusing.powerState, .off, "not off while its effect may still play")
        try refusing.sleep()
        XCTAssertTrue(device2.playing.isEmpty)
        XCTAssertTrue(device2.stored.isEmpty)
        XCTAssertEqual(refusing.powerState, .off)

        let (gone, unplugged) = try drivingActuator()
        unplugged.isGone = true
        XCTAssertThrowsError(try gone.sleep()) { error in
            XCTAssertEqual(error as? ForceFeedbackError, .deviceGone(device: "/dev/input/event7"))
        }
        XCTAssertEqual(gone.powerState, .off, "a gone device is let go")
        unplugged.isGone = false
        try gone.setAmplitude(0.3)
        XCTAssertEqual(unplugged.playing.count, 1, "woken afresh: a new slot uploaded and played")
    }
}
