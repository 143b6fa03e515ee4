// A custom I2CBus for a test rig: every transfer to the rig's chip is traced with its time, and
// the rig can make the chip stop acknowledging from the Nth transfer on, as a loose wire would.
// The board is the built-in sim board's description opened on the rig's hardware; the rig's chip
// is the DRV2605 model of HardwareMocks (a real rig would forward to its USB-I2C bridge instead).
// Usage: test-rig-bus   — plays a pattern cleanly, then again with the wire cut mid-play, and
// checks the chip ended stopped and in standby both times (exit 1 if not).
import ActuatorHAL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import HapticRuntime
import HardwareMocks

/// The rig's bus: forwards to `wire`, keeps a trace, and fails every transfer from `cutAfter` on.
final class RigBus: I2CBus {
    struct Transfer {
        var time: MonotonicInstant
        var address: I2CAddress
        var operations: [I2COperation]
    }

    let name = "rig"
    var speedHz: Int { wire.speedHz }
    private let wire: any I2CBus
    private let clock: any MonotonicClock
    private(set) var trace: [Transfer] = []
    /// Transfers after this many fail with a missing acknowledge; nil: none do.
    var cutAfter: Int?

    init(wire: any I2CBus, clock: any MonotonicClock) {
        self.wire = wire
        self.clock = clock
    }

    func transaction(address: I2CAddress, _ operations: [I2COperation]) throws(I2CError) -> [[UInt8]] {
        trace.append(Transfer(time: clock.now, address: address, operations: operations))
        if let cutAfter, trace.count > cutAfter { throw .noAcknowledge(bus: name, address: address) }
        return try wire.transaction(address: address, operations)
    }
}

/// The rig as a board's hardware: one chip, on the rig's bus, whatever the placement says.
final class RigHardware: BoardHardware {
    let chip = SimulatedBoard()
    lazy var bus = RigBus(wire: chip.bus, clock: chip.clock)
    var clock: any MonotonicClock { chip.clock }
    let soundDecoder: any SoundDecoder = NoSounds()

    func drv2605(at placement: ChipPlacement) throws -> DRV2605 {
        DRV2605(bus: bus, address: placement.address, enableLine: chip.enableLine, clock: chip.clock)
    }

    func openPCM(device: String, format: PCMFormat, for owner: String) throws(PCMError) -> any PCMSink {
        throw .open(device: device, errno: .noSuchFileOrDirectory)  // the rig has none
    }

    func protect(_ chips: [(driver: DRV2605, realtimeInput: DRV2605RealtimeInput)]) throws {}
    func standDown() {}
}

/// The rig plays no sound files.
struct NoSounds: SoundDecoder {
    func decode(contentsOf url: URL, sampleRate: Int) throws(SoundFileError) -> DecodedSound {
        throw .unreadable(path: url.path, reason: "the rig plays no sound")
    }

    func decodeMono(contentsOf url: URL, maximumDuration: Double) throws(SoundFileError) -> MonoSound {
        throw .unreadable(path: url.path, reason: "the rig plays no sound")
    }
}

/// Plays `notation` on a fresh rig, the wire cut after `cutAfter` transfers; returns the rig and
/// how the playback ended.
func run(cutAfter: Int?) throws -> (RigHardware, String) {
    let rig = RigHardware()
    let board = try Board.sim.open(on: rig)
    defer { board.close() }
    let content = try HapticNotation.parse("loud sharp\n. 0.1s\ncontinuous 0.3s:\n  adsr: 0.05, 0.1, 0.7, 0.1\n", file: "rig.hnl")
    let session = PlaybackSession(board: board, pace: .stepped)
    // Armed once the actuator is awake, so the cut lands in the middle of the playback.
    try session.wake()
    rig.bus.cutAfter = cutAfter.map { rig.bus.trace.count + $0 }
    do {
        let report = try session.play([.init(name: "rig.hnl", content: content, soundFolder: URL(fileURLWithPath: "."))])
        return (rig, "played: \(report.commands) commands, \(report.late) late")
    } catch {
        return (rig, "stopped: \(error)")
    }
}

var failed = false
for cut in [nil, 12] {
    let (rig, outcome) = try run(cutAfter: cut)
    let realtimeWrites = rig.bus.trace.filter { $0.operations.first.map { if case .write(let bytes) = $0 { bytes.first == 0x02 } else { false } } ?? false }
    let mode = rig.chip.chip.register(DRV2605Register.mode.rawValue)
    let safe = !rig.chip.chip.isEnabled || (mode & 0x40 != 0 && rig.chip.chip.drive.changes.last?.amplitude == 0)
    print("\(cut.map { "wire cut after \($0) transfers" } ?? "clean wire"): \(outcome); \(rig.bus.trace.count) transfers, \(realtimeWrites.count) RTP writes; chip \(safe ? "stopped and in standby or off" : "LEFT DRIVING")")
    failed = failed || !safe
}
if failed { exit(1) }
