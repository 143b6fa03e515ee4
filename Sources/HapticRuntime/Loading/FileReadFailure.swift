#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why reading a file failed, in words: the system's message for the errno underneath ("No such
/// file or directory"). `localizedDescription` needs full Foundation (its NSError bridging), which
/// the library does without.
enum FileReadFailure {
    static func reason(for error: any Error) -> String {
        let posix = (error as? POSIXError) ?? ((error as? CocoaError)?.underlying as? POSIXError)
        guard let posix else { return "\(error)" }
        return String(cString: strerror(posix.code.rawValue))
    }
}
