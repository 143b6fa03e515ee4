#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Time the hypervisor gave this virtual machine's CPUs to someone else while they had work (the
/// `steal` column of /proc/stat, summed over CPUs). On a shared build VM it explains stalls that
/// no thread priority can prevent, so the benchmark prints it next to the lateness it causes.
enum HostStealTime {
    /// The total so far; nil where the kernel does not report it.
    static var now: Duration? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
        else { return nil }
        // cpu user nice system idle iowait irq softirq steal …
        let fields = line.split(separator: " ")
        guard fields.count > 8, let ticks = Int64(fields[8]) else { return nil }
        let ticksPerSecond = Int64(sysconf(Int32(_SC_CLK_TCK)))
        guard ticksPerSecond > 0 else { return nil }
        return .milliseconds(ticks * 1_000 / ticksPerSecond)
    }

    /// Steal time accumulated while `body` ran; nil where it is not reported.
    static func measure(_ body: () -> Void) -> Duration? {
        let before = now
        body()
        guard let before, let after = now else { return nil }
        return after - before
    }
}
