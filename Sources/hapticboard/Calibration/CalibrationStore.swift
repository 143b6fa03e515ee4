import ActuatorHAL
import Foundation

/// Calibration results kept between runs, in `calibration.json` in the state directory, keyed by
/// board name and actuator name, so `play` and `status` restore them instead of recalibrating.
///
/// The directory: `--state-dir`; else `/var/lib/hapticboard` when running as root; else
/// `$XDG_STATE_HOME/hapticboard`; else `~/.local/state/hapticboard`.
struct CalibrationStore {
    /// The file's name inside the state directory.
    static let fileName = "calibration.json"

    /// One stored result and when it was measured.
    struct Entry: Codable, Equatable {
        var result: DRV2605CalibrationResult
        /// ISO 8601, for people reading the file.
        var calibratedAt: String
    }

    /// The file's contents: board name → actuator name → entry.
    struct Contents: Codable, Equatable {
        var boards: [String: [String: Entry]] = [:]

        /// The stored result for `actuator` on `board`, if any.
        func result(board: String, actuator: String) -> DRV2605CalibrationResult? {
            boards[board]?[actuator]?.result
        }

        func entry(board: String, actuator: String) -> Entry? {
            boards[board]?[actuator]
        }

        mutating func store(_ result: DRV2605CalibrationResult, board: String, actuator: String, at date: Date) {
            boards[board, default: [:]][actuator] = Entry(result: result, calibratedAt: ISO8601DateFormatter().string(from: date))
        }
    }

    /// The state directory.
    var directory: String

    /// Writes the file's bytes: atomically (a temporary file renamed over the old one), so a
    /// write that fails half way — a full disk — leaves the previous results as they were. Tests
    /// put a failing disk here.
    var writeFile: (Data, URL) throws -> Void = { data, url in try data.write(to: url, options: .atomic) }

    var path: String { (directory as NSString).appendingPathComponent(Self.fileName) }

    /// The store in `override`, or the default directory for this user.
    init(directory override: String?) {
        directory = override ?? Self.defaultDirectory(
            environment: ProcessInfo.processInfo.environment,
            isRoot: geteuid() == 0,
            home: FileManager.default.homeDirectoryForCurrentUser.path
        )
    }

    /// The default-directory rule, with its inputs passed in so it can be tested.
    static func defaultDirectory(environment: [String: String], isRoot: Bool, home: String) -> String {
        if isRoot { return "/var/lib/hapticboard" }
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/hapticboard" }
        return home + "/.local/state/hapticboard"
    }

    /// What is stored; an absent file is an empty store.
    func load() throws(CommandLineError) -> Contents {
        guard FileManager.default.fileExists(atPath: path) else { return Contents() }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            return try JSONDecoder().decode(Contents.self, from: data)
        } catch {
            throw .calibrationState(path: path, reason: "cannot read it (\(error)); delete it or run 'hapticboard calibrate --force'")
        }
    }

    /// What went wrong, with the errno name where the system gave one (ENOSPC for a full disk).
    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        let posix = nsError.domain == NSPOSIXErrorDomain ? nsError : nsError.userInfo[NSUnderlyingErrorKey] as? NSError
        guard let posix, posix.domain == NSPOSIXErrorDomain else { return error.localizedDescription }
        return "\(String(cString: strerror(Int32(posix.code)))) (errno \(posix.code))"
    }

    /// Replaces the file atomically, creating the directory if needed.
    func save(_ contents: Contents) throws(CommandLineError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try writeFile(try encoder.encode(contents), URL(fileURLWithPath: path))
        } catch {
            throw .calibrationState(path: path, reason: "cannot write it: \(Self.reason(error)); the results measured now are not stored (the file keeps what it had)")
        }
    }
}
