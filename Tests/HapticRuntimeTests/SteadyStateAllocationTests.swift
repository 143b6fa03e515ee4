import ActuatorHAL
import AllocationCounting
import HardwareMocks
import MallocInterposerSwift
import XCTest
@testable import HapticRuntime

/// Once a player streams, a real-time amplitude sample — the scheduler taking and running it, the
/// player topping up its plan, the engine's mix, the driver's RTP_INPUT write — allocates nothing.
/// Counted exactly, with the malloc interposer, on the virtual clock.
final class SteadyStateAllocationTests: XCTestCase {
    /// A 30 s continuous event whose intensity swings between 0.2 and 1 every 10 ms (linear ramps,
    /// 16 control points to a curve): every 1 kHz sample is a new RTP level, so every one is a
    /// bus write.
    static let swingingRumble = HapticPattern(
        events: [HapticEvent(type: .hapticContinuous, time: 0, duration: 30, parameters: [.init(.hapticIntensity, 1), .init(.hapticSharpness, 0.5)])],
        parameterCurves: (0..<200).map { curve in
            ParameterCurve(
                .hapticIntensityControl, time: Double(curve) * 0.15,
                controlPoints: (0..<16).map { ControlPoint(time: Double($0) * 0.01, value: $0.isMultiple(of: 2) ? 0.2 : 1) }
            )
        }
    )

    func testTheCounterSeesAnAllocation() {
        let count = allocationsOnThisThread { blackHole(NSObject()) }
        XCTAssertGreaterThanOrEqual(count, 1, "otherwise a zero below would prove nothing")
    }

    func testTenThousandStreamedSamplesAllocateNothing() throws {
        let board = SimulatedBoard()
        let bus = SampleCapturingBus(forwardingTo: board.bus)
        let actuator = DRV2605Actuator(name: "main", driver: DRV2605(bus: bus, enableLine: board.enableLine, clock: board.clock), configuration: engineTestLRA)
        let scheduler = DeadlineScheduler(clock: board.clock)
        // No status poll: a read every 100 ms is monitoring, not a sample (and its reply is an array).
        let engine = HapticEngine(actuators: [EngineActuator(actuator, statusPollInterval: nil)], clock: board.clock, scheduler: scheduler)
        try engine.start()
        let player = try engine.makePlayer(with: Self.swingingRumble)
        XCTAssertEqual(player.programs["main"]?.updateRate, 1_000)
        try player.start(atTime: 0)
        // Wake, prepare and the first second of the stream: the plan and the queues reach their size.
        scheduler.run(until: .at(1))
        XCTAssertEqual(actuator.preparedMode, .realtimeAmplitude)

        bus.startCapturing()
        let dispatchedBefore = scheduler.metrics.dispatched
        let allocations = allocationsOnThisThread {
            scheduler.run(until: .at(11))
        }
        XCTAssertEqual(allocations, 0, "allocations over 10 s of 1 kHz samples")
        XCTAssertGreaterThanOrEqual(bus.capturedWrites, 9_990, "the samples were written")
        XCTAssertGreaterThanOrEqual(scheduler.metrics.dispatched - dispatchedBefore, 10_000)
        XCTAssertTrue(player.isPlaying)
    }

    /// The allocations the calling thread makes in `body` (other threads' are not counted).
    private func allocationsOnThisThread(in body: () -> Void) -> Int {
        MallocInterposerSwift.setAllocationHook(hb_count_allocation)
        MallocInterposerSwift.hook()
        hb_allocation_counting_begin()
        body()
        let count = hb_allocation_counting_end()
        MallocInterposerSwift.unhook()
        MallocInterposerSwift.setAllocationHook(nil)
        return Int(count)
    }

    @inline(never)
    private func blackHole(_ value: AnyObject) {
        XCTAssertNotNil(value)
    }
}

/// Forwards every transaction to the simulated chip's bus until `startCapturing()`; from then on
/// register writes are counted instead of reaching the model, whose logs and drive timeline
/// allocate as a simulation may. What is measured is everything above the bus.
private final class SampleCapturingBus: I2CBus {
    private let device: SimulatedI2CBus
    private var isCapturing = false
    private(set) var capturedWrites = 0

    init(forwardingTo device: SimulatedI2CBus) {
        self.device = device
    }

    var speedHz: Int { device.speedHz }
    var name: String { device.name }

    func startCapturing() {
        isCapturing = true
    }

    func transaction(address: I2CAddress, _ operations: [I2COperation]) throws(I2CError) -> [[UInt8]] {
        try device.transaction(address: address, operations)
    }

    func writeRegister(address: I2CAddress, register: UInt8, value: UInt8) throws(I2CError) {
        guard isCapturing else {
            _ = try device.transaction(address: address, [.write([register, value])])
            return
        }
        capturedWrites += 1
    }
}
