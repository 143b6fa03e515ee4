import ActuatorHAL
import HardwareMocks
import XCTest

/// The scripted bus pins a driver's transfers down exactly; here the DRV2605 driver's.
final class ScriptedI2CBusTests: XCTestCase {
    private let chip: I2CAddress = 0x5A

    /// The slots and the terminating slot in one write from WAV_FRM_SEQ1 (the pointer advances), then GO.
    func testADRV2605SequenceIsOneWriteOfItsSlotsThenGo() throws {
        let bus = ScriptedI2CBus(expecting: [
            .write(chip, [0x04, 1, 47, 0]),
            .write(chip, [0x0C, 1]),
        ])
        let driver = DRV2605(bus: bus, clock: VirtualClock())
        try driver.play([.effect(1), .effect(47)])
        try bus.verify()
    }

    func testIdentifyReadsStatusOnce() throws {
        let bus = ScriptedI2CBus(expecting: [.writeRead(chip, [0x00], reply: [0xE2])])
        let driver = DRV2605(bus: bus, clock: VirtualClock())
        XCTAssertEqual(try driver.identify(), .drv2605L)
        XCTAssertEqual(driver.takeUnreportedFaults().overTemperature, true, "the one read's OVER_TEMP is kept")
        try bus.verify()
    }

    func testAnUnexpectedTransactionFailsAndIsReportedEvenIfSwallowed() {
        let bus = ScriptedI2CBus(expecting: [.write(chip, [0x0C, 0])])
        XCTAssertThrowsError(try bus.write(address: chip, [0x0C, 1]))
        XCTAssertThrowsError(try bus.verify()) { error in
            let mismatch = error as? ScriptedI2CBus.Mismatch
            XCTAssertEqual(mismatch?.unexpected.count, 1)
            XCTAssertEqual(mismatch?.leftOver, [.write(chip, [0x0C, 0])], "the expected transfer never came")
        }
    }

    func testAScriptedFailureReachesTheDriverAsItsTypedError() throws {
        let nack = I2CError.noAcknowledge(bus: "scripted", address: chip)
        let bus = ScriptedI2CBus(expecting: [.write(chip, [0x0C, 0]).failing(with: nack)])
        let driver = DRV2605(bus: bus, clock: VirtualClock(), retryPolicy: DRV2605RetryPolicy(retries: 0))
        XCTAssertThrowsError(try driver.stop()) { error in
            XCTAssertEqual(error as? DRV2605Error, .bus(register: .go, nack, attempts: 1))
        }
        try bus.verify()
    }
}
