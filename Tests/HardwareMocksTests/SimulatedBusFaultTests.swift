import ActuatorHAL
import HardwareMocks
import SystemPackage
import XCTest

final class SimulatedBusFaultTests: XCTestCase {
    private let ratedVoltage: UInt8 = 0x16

    func testInjectedNoAcknowledgeLastsUntilCleared() throws {
        let board = SimulatedBoard()
        try board.powerOn()
        let neighbour = DRV2605Model(clock: board.clock, enableLine: board.enableLine)
        let neighbourAddress: I2CAddress = 0x5B
        board.bus.attach(neighbour, at: neighbourAddress)
        board.bus.injectNoAcknowledge(from: SimulatedBoard.chipAddress)
        for _ in 0..<3 {
            XCTAssertThrowsError(try board.writeRegister(ratedVoltage, 0x90)) { error in
                XCTAssertEqual(error as? I2CError, .noAcknowledge(bus: "sim", address: SimulatedBoard.chipAddress))
            }
        }
        XCTAssertEqual(board.chip.register(ratedVoltage), 0x3E, "the chip never saw the writes")
        XCTAssertNoThrow(try board.bus.write(address: neighbourAddress, [ratedVoltage, 0x91]), "other addresses still answer")
        XCTAssertEqual(neighbour.register(ratedVoltage), 0x91)
        board.bus.clearInjectedFaults()
        try board.writeRegister(ratedVoltage, 0x90)
        XCTAssertEqual(board.chip.register(ratedVoltage), 0x90)
    }

    func testInjectedErrorHitsTheNthTransferForTheGivenNumberOfTimes() throws {
        let board = SimulatedBoard()
        try board.powerOn()
        let eio = I2CError.transfer(bus: "sim", address: SimulatedBoard.chipAddress, errno: .ioError)
        board.bus.injectError(eio, onTransfer: 2, times: 2)
        var outcomes: [I2CError?] = []
        for value: UInt8 in [0x10, 0x20, 0x30, 0x40] {
            do {
                try board.writeRegister(ratedVoltage, value)
                outcomes.append(nil)
            } catch {
                outcomes.append(error)
            }
        }
        XCTAssertEqual(outcomes, [nil, eio, eio, nil])
        XCTAssertTrue(eio.isTransient)
        XCTAssertEqual(board.bus.log.suffix(4).map(\.error), outcomes, "failures are logged")
        XCTAssertEqual(board.chip.register(ratedVoltage), 0x40)
    }

    func testInjectedErrorOnTheNextTransferAndFailedWritesAreNotApplied() throws {
        let board = SimulatedBoard()
        try board.powerOn()
        let again = I2CError.transfer(bus: "sim", address: SimulatedBoard.chipAddress, errno: .resourceTemporarilyUnavailable)
        board.bus.injectError(again, onTransfer: 1)
        let before = board.clock.now
        XCTAssertThrowsError(try board.writeRegister(ratedVoltage, 0x77))
        XCTAssertGreaterThan(board.clock.now, before, "the failed transfer still took bus time")
        XCTAssertEqual(board.chip.register(ratedVoltage), 0x3E)
        XCTAssertNoThrow(try board.writeRegister(ratedVoltage, 0x77))
    }

    func testStuckBusTimesOutEveryTransferAfterTheBusTimeout() throws {
        let board = SimulatedBoard()
        try board.powerOn()
        board.bus.isStuck = true
        XCTAssertTrue(board.bus.isStuck)
        for _ in 0..<2 {
            let before = board.clock.now
            XCTAssertThrowsError(try board.readRegister(0x00)) { error in
                XCTAssertEqual(error as? I2CError, .timeout(bus: "sim", address: SimulatedBoard.chipAddress))
            }
            XCTAssertEqual(board.clock.now - before, .milliseconds(25))
        }
        XCTAssertEqual(board.bus.stuckTimeout, .milliseconds(25))
        board.bus.isStuck = false
        XCTAssertEqual(try board.readRegister(0x00), 0xE0)
    }

    func testClearInjectedFaultsRemovesPlannedErrorsAndStuckState() throws {
        let board = SimulatedBoard()
        try board.powerOn()
        board.bus.injectError(.timeout(bus: "sim", address: SimulatedBoard.chipAddress), onTransfer: 1, times: 5)
        board.bus.isStuck = true
        board.bus.clearInjectedFaults()
        XCTAssertFalse(board.bus.isStuck)
        XCTAssertEqual(try board.readRegister(0x00), 0xE0)
    }

    func testDeviceThatDisappearsStopsAcknowledging() throws {
        let board = SimulatedBoard()
        try board.powerOn()
        XCTAssertEqual(try board.readRegister(0x00), 0xE0)
        board.bus.detach(at: SimulatedBoard.chipAddress)
        XCTAssertThrowsError(try board.readRegister(0x00)) { error in
            XCTAssertEqual(error as? I2CError, .noAcknowledge(bus: "sim", address: SimulatedBoard.chipAddress))
        }
        board.bus.clearInjectedFaults()
        XCTAssertThrowsError(try board.readRegister(0x00), "a detached device stays gone")
    }
}
