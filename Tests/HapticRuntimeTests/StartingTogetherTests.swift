import ActuatorHAL
import HardwareMocks
import XCTest
@testable import HapticRuntime

/// Two DRV2605L chips behind one TCA9548A, as on a game controller's grips: content due on both at
/// one deadline starts on both in the same bus transfer (broadcast address 0x58).
final class StartingTogetherTests: XCTestCase {
    /// Where the two chips sit and how content due on both is started.
    private enum Layout {
        /// Behind one TCA9548A, started with one broadcast write (`together`) or one by one.
        case behindOneSwitch(together: Bool, variant: DRV2605Model.Variant = .drv2605L)
        /// Each on a bus of its own, started back to back (`together`) or one by one.
        case separateBuses(together: Bool)
    }

    private final class Rig {
        let chips: [DRV2605Model]
        let actuators: [DRV2605Actuator]
        let scheduler: DeadlineScheduler
        let engine: HapticEngine

        init(_ layout: Layout) throws {
            let clock: VirtualClock
            let synchronizers: [any ActuatorSynchronizer]
            switch layout {
            case .behindOneSwitch(let together, let variant):
                let board = try SimulatedMuxBoard(chips: 2, variant: variant)
                let mux = try TCA9548A(parent: board.bus, address: SimulatedMuxBoard.muxAddress)
                actuators = try ["left", "right"].enumerated().map { index, name in
                    let driver = DRV2605(bus: try mux.channel(index), enableLine: board.enableLines[index], clock: board.clock)
                    return DRV2605Actuator(name: name, driver: driver, configuration: engineTestLRA, expectedVariant: variant == .drv2605L ? .drv2605L : .drv2605)
                }
                clock = board.clock
                chips = board.chips
                let broadcasts: [any ActuatorSynchronizer] = DRV2605Broadcast.groups(of: actuators)
                let backToBack: [any ActuatorSynchronizer] = [try XCTUnwrap(DRV2605BackToBackStart(actuators))]
                synchronizers = !together ? [] : broadcasts.isEmpty ? backToBack : broadcasts
            case .separateBuses(let together):
                clock = VirtualClock()
                let boards = (0..<2).map { _ in SimulatedBoard(clock: clock) }
                actuators = zip(["left", "right"], boards).map { name, board in
                    DRV2605Actuator(name: name, driver: DRV2605(bus: board.bus, enableLine: board.enableLine, clock: clock), configuration: engineTestLRA)
                }
                chips = boards.map(\.chip)
                synchronizers = together ? [try XCTUnwrap(DRV2605BackToBackStart.group(of: actuators, besides: []))] : []
            }
            scheduler = DeadlineScheduler(clock: clock)
            engine = HapticEngine(
                actuators: actuators.map { EngineActuator($0, statusPollInterval: nil) }, clock: clock, scheduler: scheduler,
                synchronizers: synchronizers
            )
            try engine.start()
        }

        /// When each chip's output first changed to `amplitude` or more, after `after`.
        func onsets(after: MonotonicInstant = .zero, atLeast amplitude: Double = 0.01) -> [MonotonicInstant?] {
            chips.map { chip in chip.drive.changes.first { $0.time > after && $0.amplitude >= amplitude }?.time }
        }
    }

    /// One register write at 400 kHz, and one switch select.
    private let oneWrite = Duration.nanoseconds(72_500)
    private let oneSelect = Duration.nanoseconds(50_000)

    private func onsetSpread(_ layout: Layout, pattern: HapticPattern) throws -> Duration {
        let rig = try Rig(layout)
        try rig.engine.makePlayer(with: pattern).start(atTime: 0.05)
        rig.scheduler.run(until: .at(0.5))
        let onsets = try rig.onsets().map { try XCTUnwrap($0) }
        XCTAssertEqual(onsets.count, 2)
        return onsets.max()! - onsets.min()!
    }

    func testATapDueOnBothGripsStartsOnBothInOneTransfer() throws {
        let tap = TestPatterns.taps(at: [0])
        XCTAssertEqual(try onsetSpread(.behindOneSwitch(together: true), pattern: tap), .zero, "one GO to 0x58 with both channels connected")
        // One after the other, the second GO waits for the first GO and a switch select.
        XCTAssertGreaterThan(try onsetSpread(.behindOneSwitch(together: false), pattern: tap), oneWrite)
    }

    func testABuzzDueOnBothGripsStartsOnBothInOneTransfer() throws {
        let buzz = TestPatterns.buzz(duration: 0.2)
        XCTAssertEqual(try onsetSpread(.behindOneSwitch(together: true), pattern: buzz), .zero, "one RTP_INPUT write to 0x58")
        XCTAssertGreaterThan(try onsetSpread(.behindOneSwitch(together: false), pattern: buzz), oneWrite)
    }

    func testChipsOnTwoBusesStartOneWriteApart() throws {
        let tap = TestPatterns.taps(at: [0])
        XCTAssertEqual(try onsetSpread(.separateBuses(together: true), pattern: tap), oneWrite, "both sequencers loaded first, then the two GO writes")
        // One by one, the second chip's sequencer slots come between the two GO writes.
        XCTAssertGreaterThan(try onsetSpread(.separateBuses(together: false), pattern: tap), oneWrite * 2)
        // Real-time mode is entered ahead of the deadline, so a buzz is the two RTP_INPUT writes either way.
        XCTAssertEqual(try onsetSpread(.separateBuses(together: true), pattern: TestPatterns.buzz(duration: 0.2)), oneWrite)
    }

    func testChipsBehindASwitchWithoutBroadcastStartOneSelectAndOneWriteApart() throws {
        let tap = TestPatterns.taps(at: [0])
        XCTAssertEqual(try onsetSpread(.behindOneSwitch(together: true, variant: .drv2605), pattern: tap), oneSelect + oneWrite)
        XCTAssertGreaterThan(try onsetSpread(.behindOneSwitch(together: false, variant: .drv2605), pattern: tap), (oneSelect + oneWrite) * 2)
    }

    func testDifferentLevelsOnTheTwoGripsAreWrittenChipByChip() throws {
        let rig = try Rig(.behindOneSwitch(together: true))
        try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 0.3), on: "left").start(atTime: 0.05)
        try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 0.2, intensity: 0.5)).start(atTime: 0.1)
        rig.scheduler.run(until: .at(0.2))
        // Left mixes both players (clamped at full), right has only the half-intensity one.
        XCTAssertEqual(rig.chips[0].drive.level(at: .at(0.2)).amplitude, 1, accuracy: 0.01)
        XCTAssertEqual(rig.chips[1].drive.level(at: .at(0.2)).amplitude, 0.5 * 0.9, accuracy: 0.02)
        rig.scheduler.run(until: .at(1))
        for chip in rig.chips { XCTAssertEqual(chip.drive.level(at: .at(1)).amplitude, 0) }
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
