/// Boards compiled into the command, so it runs without the repository's `Boards/` directory.
enum BuiltInBoard {
    /// The name `--board` takes for the simulated board, and its default.
    static let simName = "sim"

    /// `Boards/sim.yml`, word for word; a test checks that the two agree.
    static let simYAML = """
    # The built-in simulated board: one DRV2605L driving a 175 Hz, 2.0 V rms LRA on a simulated
    # 400 kHz bus. `hapticboard` uses it when no board is configured; this file documents it and
    # is checked against the built-in one by the tests.
    board: sim
    description: Simulated DRV2605L with a 175 Hz LRA (Precision Microdrives C10-100 class)
    buses:
      - name: sim
        device: sim
        clock-frequency: 400000
    actuators:
      - name: main
        compatible: ti,drv2605l
        bus: sim
        reg: 0x5a
        enable-gpios: EN
        actuator-mode: LRA
        loop: closed
        vib-rated-mv: 2000        # 2.0 V rms
        vib-overdrive-mv: 2800    # peak clamp
        resonant-frequency-hz: 175
        library-sel: 6            # LRA library
        max-continuous-drive-ms: 30000
    power:
      standby-timeout-ms: 2000
      off-timeout-ms: 30000
    """

    /// The simulated board's description: one DRV2605L with a 175 Hz, 2.0 V rms LRA.
    static func sim() throws(BoardFileError) -> BoardFile {
        try BoardFile.parse(simYAML, path: "built-in board '\(simName)'")
    }
}
