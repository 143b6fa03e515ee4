/// A command that ended early on a signal, after cleaning up: exits with the shell's 128 + signal.
struct CommandTermination: Error, CustomStringConvertible {
    /// The signal number (SIGINT 2, SIGTERM 15).
    var signal: Int32

    /// 130 for SIGINT, 143 for SIGTERM.
    var exitStatus: Int32 { 128 + signal }

    var description: String { "stopped by signal \(signal)" }
}
