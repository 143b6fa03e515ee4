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

/// Reads content files (AHAP, `.haptic`, notation, notes) as text, refusing ones too large to be
/// content before reading them: a 1 GB file handed over by mistake gets a clear message instead of
/// filling memory.
public enum ContentFileReading {
    /// The largest content file read: 64 MiB. The largest real AHAP and `.haptic` files (an hour
    /// of dense breakpoints) are a few MiB.
    public static let maximumSize = 64 << 20

    /// Why a file's text could not be had; `reason` is the end of a sentence naming the file.
    public enum Problem: Error, Sendable, Hashable {
        case unreadable(String)
        case tooLarge(size: Int)
        case notUTF8

        public var reason: String {
            switch self {
            case .unreadable(let reason): reason
            case .tooLarge(let size):
                "it is \(Self.mebibytes(size)) MiB, more than the \(Self.mebibytes(ContentFileReading.maximumSize)) MiB a content file may have"
            case .notUTF8: "it is not UTF-8 text"
            }
        }

        private static func mebibytes(_ bytes: Int) -> String {
            // To a tenth, rounded: String(format:) is full Foundation's.
            let tenths = (bytes * 10 + (1 << 19)) >> 20
            return "\(tenths / 10).\(tenths % 10)"
        }
    }

    /// The bytes of the file at `url`, after checking its size.
    public static func data(of url: URL) throws(Problem) -> Data {
        // A file that cannot be looked at fails below, where reading says why.
        var status = stat()
        if stat(url.path, &status) == 0 {
            // FoundationEssentials refuses to read a pipe or a device with EACCES, whose
            // "Permission denied" would send the user to the file's permissions.
            let kind = status.st_mode & S_IFMT
            guard kind == S_IFREG || kind == S_IFDIR else { throw .unreadable("it is a pipe or a device, not a file") }
            if status.st_size > maximumSize { throw .tooLarge(size: Int(status.st_size)) }
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(FileReadFailure.reason(for: error))
        }
        // A file that grew (or a device that reports no size) is held to the same limit.
        guard data.count <= maximumSize else { throw .tooLarge(size: data.count) }
        return data
    }

    /// The UTF-8 text of the file at `url`, after checking its size.
    public static func text(of url: URL) throws(Problem) -> String {
        try text(of: try data(of: url))
    }

    /// `data` as UTF-8 text.
    public static func text(of data: Data) throws(Problem) -> String {
        guard let text = String(data: data, encoding: .utf8) else { throw .notUTF8 }
        return text
    }
}
