#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ActuatorHAL
import ActuatorHALLinux
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `hapticboard play --effect 47` on the sim board as a new process, timed from just before the
/// spawn to the first register write the child reports (`FirstBusWriteReport`), with the child's
/// peak resident memory while it played (`ru_maxrss` from `wait4`). The process start includes
/// exec, dynamic loading, argument parsing, opening the board and waking the chip (its datasheet
/// 250 µs after EN included).
struct ColdPlay {
    /// What one run measured.
    struct Run {
        var toFirstWrite: Duration?
        var maximumResidentBytes: Int
        var memoryLocked: Bool
        var exitStatus: Int32
    }

    static let arguments = ["play", "--effect", "47"]

    let clock: SystemMonotonicClock

    /// Spawns this executable with `arguments` and waits for it.
    func run() throws -> Run {
        let executable = try Self.ownExecutable()
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { throw ColdPlayError.spawn(errno) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, descriptors[1], 2)
        posix_spawn_file_actions_addclose(&actions, descriptors[0])
        let argv = ([executable] + Self.arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environment = ProcessInfo.processInfo.environment.merging([FirstBusWriteReport.environmentKey: "1"]) { $1 }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }

        var pid = pid_t()
        let started = clock.now
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(descriptors[1])
        guard spawned == 0 else {
            close(descriptors[0])
            throw ColdPlayError.spawn(spawned)
        }
        let errorOutput = Self.readAll(descriptors[0])
        close(descriptors[0])
        var status: Int32 = 0
        var usage = rusage()
        _ = wait4(pid, &status, 0, &usage)

        let reported = errorOutput.split(separator: "\n").lazy
            .compactMap { line in line.hasPrefix(FirstBusWriteReport.marker) ? Int64(line.dropFirst(FirstBusWriteReport.marker.count)) : nil }
            .first
        return Run(
            toFirstWrite: reported.map { MonotonicInstant(nanoseconds: $0) - started },
            maximumResidentBytes: Int(usage.ru_maxrss) * 1024,
            memoryLocked: !errorOutput.contains("real-time timing not permitted"),
            exitStatus: (status >> 8) & 0xFF
        )
    }

    private static func ownExecutable() throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { throw ColdPlayError.spawn(errno) }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func readAll(_ descriptor: Int32) -> String {
        var data = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            data += chunk[..<count]
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Why the cold-start run could not be made.
enum ColdPlayError: Error, CustomStringConvertible {
    case spawn(Int32)

    var description: String {
        switch self {
        case .spawn(let code): "bench: could not start `hapticboard \(ColdPlay.arguments.joined(separator: " "))`: \(String(cString: strerror(code)))"
        }
    }
}
