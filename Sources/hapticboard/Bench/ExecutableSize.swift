#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The size on disk of the running executable.
enum ExecutableSize {
    /// In MiB; nil when /proc/self/exe cannot be read.
    static var mebibytes: Double? {
        var status = stat()
        guard stat("/proc/self/exe", &status) == 0 else { return nil }
        return Double(status.st_size) / 1_048_576
    }
}
