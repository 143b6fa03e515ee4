import ArgumentParser

/// Where calibration results are kept, for the commands that store or restore them.
struct StateOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Directory of calibration.json (default: $XDG_STATE_HOME/hapticboard, else ~/.local/state/hapticboard; /var/lib/hapticboard as root).",
        valueName: "dir"
    ))
    var stateDir: String?

    var store: CalibrationStore { CalibrationStore(directory: stateDir) }
}
