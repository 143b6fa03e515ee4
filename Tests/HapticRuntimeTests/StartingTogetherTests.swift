import ActuatorHAL
import HardwareMocks
import XCTest
@testable import HapticRuntime

/// Two DRV2605L chips behind one TCA9548A, as on a game controller's grips: content due on both at
/// one deadline starts on both in the same bus transfer (broadcast address 0x58).
final class StartingTogetherTests: XCTestCase {
    private final class Rig {
        let board: SimulatedMuxBoard
        let actuators: [DRV2605Actuator]
        let scheduler: DeadlineScheduler
        let engine: HapticEngine

        init(together: Bool) throws {
            let board = try SimulatedMuxBoard(chips: 2)
            let mux = try TCA9548A(parent: board.bus, address: SimulatedMuxBoard.muxAddress)
            actuators = try ["left", "right"].enumerated().map { index, name in
                let driver = DRV2605(bus: try mux.channel(index), enableLine: board.enableLines[index], clock: board.clock)
                return DRV2605Actuator(name: name, driver: driver, configuration: engineTestLRA)
            }
            self.board = board
            scheduler = DeadlineScheduler(clock: board.clock)
            engine = HapticEngine(
                actuators: actuators.map { EngineActuator($0, statusPollInterval: nil) }, clock: board.clock, scheduler: scheduler,
                synchronizers: together ? [try DRV2605Broadcast(actuators)] : []
            )
            try engine.start()
        }

        /// When each chip's output first changed to `amplitude` or more, after `after`.
        func onsets(after: MonotonicInstant = .zero, atLeast amplitude: Double = 0.01) -> [MonotonicInstant?] {
            board.chips.map { chip in chip.drive.changes.first { $0.time > after && $0.amplitude >= amplitude }?.time }
        }
    }

    private let oneWrite = Duration.nanoseconds(72_500)

    private func onsetSpread(together: Bool, pattern: HapticPattern) throws -> Duration {
        let rig = try Rig(together: together)
        try rig.engine.makePlayer(with: pattern).start(atTime: 0.05)
        rig.scheduler.run(until: .at(0.5))
        let onsets = try rig.onsets().map { try XCTUnwrap($0) }
        XCTAssertEqual(onsets.count, 2)
        return onsets.max()! - onsets.min()!
    }

    func testATapDueOnBothGripsStartsOnBothInOneTransfer() throws {
        let tap = TestPatterns.taps(at: [0])
        XCTAssertEqual(try onsetSpread(together: true, pattern: tap), .zero, "one GO to 0x58 with both channels connected")
        // One after the other, the second GO waits for the first GO and a switch select.
        XCTAssertGreaterThan(try onsetSpread(together: false, pattern: tap), oneWrite)
    }

    func testABuzzDueOnBothGripsStartsOnBothInOneTransfer() throws {
        let buzz = TestPatterns.buzz(duration: 0.2)
        XCTAssertEqual(try onsetSpread(together: true, pattern: buzz), .zero, "one RTP_INPUT write to 0x58")
        XCTAssertGreaterThan(try onsetSpread(together: false, pattern: buzz), oneWrite)
    }

    func testDifferentLevelsOnTheTwoGripsAreWrittenChipByChip() throws {
        let rig = try Rig(together: true)
        try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 0.3), on: "left").start(atTime: 0.05)
        try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 0.2, intensity: 0.5)).start(atTime: 0.1)
        rig.scheduler.run(until: .at(0.2))
        // Left mixes both players (clamped at full), right has only the half-intensity one.
        XCTAssertEqual(rig.board.chips[0].drive.level(at: .at(0.2)).amplitude, 1, accuracy: 0.01)
        XCTAssertEqual(rig.board.chips[1].drive.level(at: .at(0.2)).amplitude, 0.5 * 0.9, accuracy: 0.02)
        rig.scheduler.run(until: .at(1))
        for chip in rig.board.chips { XCTAssertEqual(chip.drive.level(at: .at(1)).amplitude, 0) }
    }

    func testOnlyPartsThatAnswerTheBroadcastAddressAreStartedTogether() throws {
        let board = try SimulatedMuxBoard(chips: 2, variant: .drv2605)
        let mux = try TCA9548A(parent: board.bus, address: SimulatedMuxBoard.muxAddress)
        let actuators = try (0..<2).map { index in
            DRV2605Actuator(name: "a\(index)", driver: DRV2605(bus: try mux.channel(index), clock: board.clock), configuration: engineTestLRA, expectedVariant: .drv2605)
        }
        XCTAssertThrowsError(try DRV2605Broadcast(actuators)) { error in
            XCTAssertEqual(error as? DRV2605Broadcast.Refusal, .noBroadcast(actuator: "a0", variant: .drv2605))
        }
    }
}
