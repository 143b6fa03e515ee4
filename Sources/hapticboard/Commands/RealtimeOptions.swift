import ActuatorHALLinux
import ArgumentParser

/// Where the commands that start real-time threads (the timing thread, input readers, the
/// force-feedback reader) run them.
struct RealtimeOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Keep the real-time threads (timing, input and force-feedback readers) on this CPU, and give the board's GPIO interrupts the same one (/proc/irq/N/smp_affinity_list): a press then wakes its reader without waking another CPU first (docs/inputs.md). Default: any CPU.",
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
