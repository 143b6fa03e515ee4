import BoardFiles
import FuzzSupport
import HapticRuntime
import HardwareMocks

/// Board YAML through the board decoder and its rules, as `--board FILE` reads it — or, for a text
/// that opens a JSON object, a board in JSON as a firmware carries it (`Board(json:source:)`); a
/// board that checks is opened on simulated hardware (every chip initialised) and closed again,
/// and no chip may be driving afterwards.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBoard(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let text = input.text()
    let isJSON = text.first { !$0.isWhitespace } == "{"
    let source = isJSON ? "fuzz.json" : "fuzz.yml"
    let board: Board
    do {
        board = try isJSON ? Board(json: text, source: source) : Board(yaml: text, source: source)
    } catch {
        Invariant.locates(error, in: source)
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
