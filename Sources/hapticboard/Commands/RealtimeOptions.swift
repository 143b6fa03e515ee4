import ActuatorHALLinux
import ArgumentParser

/// Where the commands that start real-time threads (the timing thread, input readers, the
/// force-feedback reader) run them.
struct RealtimeOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Keep the real-time threads (timing, input and force-feedback readers) on this CPU. Send the board's GPIO interrupts there too (/proc/irq/N/smp_affinity_list; this option does not) so that a press wakes its reader without waking another CPU first (docs/timing.md). Default: any CPU.",
        valueName: "cpu"
    ))
    var realtimeCPU: Int?

    func validate() throws {
        if let realtimeCPU, realtimeCPU < 0 {
            throw ValidationError("--realtime-cpu must be a CPU number (0 or more), not \(realtimeCPU).")
        }
    }

    /// The timing thread's set-up.
    var timing: RealtimeThread { RealtimeThread(cpu: realtimeCPU) }

    /// The input and force-feedback readers' set-up.
    var inputReader: RealtimeThread { RealtimeThread.inputReader(cpu: realtimeCPU) }
}
