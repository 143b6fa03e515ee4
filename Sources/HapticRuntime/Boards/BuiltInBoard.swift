/// Boards built into the library, so that a program runs without the repository's `Boards/`
/// directory and without a YAML reader (board files are `BoardFiles`' part).
enum BuiltInBoard {
    /// The name `--board` takes for the simulated board, and its default.
    static let simName = "sim"

    /// The description of `Boards/sim.yml` (which documents it; a test checks that the two decode
    /// alike), in JSON so that no YAML reader is needed (`Board(json:source:)`): one DRV2605L driving a
    /// 175 Hz, 2.0 V rms LRA (Precision Microdrives C10-100 class) on a simulated 400 kHz bus.
    static let simJSON = """
    {
      "board": "sim",
      "description": "Simulated DRV2605L with a 175 Hz LRA (Precision Microdrives C10-100 class)",
      "buses": [{ "name": "sim", "device": "sim", "clock-frequency": 400000 }],
      "actuators": [{
        "name": "main", "compatible": "ti,drv2605l", "bus": "sim", "reg": 90, "enable-gpios": "EN",
        "actuator-mode": "LRA", "loop": "closed",
        "vib-rated-mv": 2000, "vib-overdrive-mv": 2800, "resonant-frequency-hz": 175,
        "library-sel": 6, "max-continuous-drive-ms": 30000
      }],
      "power": { "standby-timeout-ms": 2000, "off-timeout-ms": 30000 }
    }
    """

    /// The simulated board's description.
    static func sim() throws(BoardFileError) -> BoardFile {
        try BoardFile.json(simJSON, path: "built-in board '\(simName)'")
    }
}
