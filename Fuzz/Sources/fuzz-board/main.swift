import BoardFiles
import FuzzSupport
import HapticRuntime
import HardwareMocks

/// Board YAML through the board decoder and its rules, as `--board FILE` reads it; a board that
/// checks is opened on simulated hardware (every chip initialised) and closed again, and no chip
/// may be driving afterwards.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBoard(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let board: Board
    do {
        board = try Board(yaml: input.text(), source: "fuzz.yml")
    } catch {
        Invariant.locates(error, in: "fuzz.yml")
        return 0
    }
    Invariant.require(!board.actuators.isEmpty || board.actuatorNames.isEmpty, "actuators and their names disagree")
    let hardware = SimulatedBoardHardware()
    guard let opened = try? board.open(on: hardware) else { return 0 }
    opened.close()
    for (name, chip) in hardware.chips {
        let level = chip.chip.drive.level(at: hardware.virtualClock.now).amplitude
        Invariant.require(level == 0, "actuator \(name) drives \(level) after the board closed")
    }
    return 0
}
