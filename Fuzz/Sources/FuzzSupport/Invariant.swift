#if canImport(Glibc)
import Glibc
#endif

/// A property every input must keep. A broken one aborts, which libFuzzer reports as a crash and
/// saves the input for: a wrong result is as much a finding as a trap.
public enum Invariant {
    public static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        guard !condition else { return }
        let text = "invariant broken: \(message())\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
        abort()
    }

    /// A refusal names where it is: `file:line:column: …`, or at least the file.
    public static func locates(_ error: some Error, in file: String) {
        let text = "\(error)"
        require(!text.isEmpty, "an error without a message")
        require(text.contains(file), "the error does not name \(file): \(text)")
    }
}
