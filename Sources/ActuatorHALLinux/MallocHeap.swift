import CDrivers
import Glibc

/// The C allocator's heap, for memory figures and for a long-running process's arenas.
public enum MallocHeap {
    /// Bytes handed out and not yet freed, over every arena. Beside the resident size it tells a
    /// leak (this grows) from freed pages the allocator keeps (only the resident size grows).
    public static var bytesInUse: UInt64 { hb_malloc_heap_in_use() }

    /// The arenas the allocator has made so far, the main one included; nil if it cannot say.
    public static var arenaCount: Int? {
        let count = hb_malloc_arena_count()
        return count >= 0 ? Int(count) : nil
    }

    /// The arenas a long-running service allows itself. glibc gives threads arenas of their own
    /// as they first allocate, up to eight per core, and each keeps the pages freed after its
    /// busiest moment: over a million service triggers on a 2-core machine that was
    /// 10–13 % more resident memory with the heap in use halved, and 6 % with two arenas
    /// (docs/service.md). The service's threads rarely allocate at once (the timing path does
    /// not allocate), so two arenas cost it no waiting worth measuring.
    public static let serviceArenaLimit = 2

    /// What `limitArenas(to:)` did.
    public enum ArenaLimit: Equatable, Sendable, CustomStringConvertible {
        /// The allocator makes no more than this many arenas from now on.
        case applied(Int)
        /// The environment chose (`MALLOC_ARENA_MAX`, or `GLIBC_TUNABLES` naming
        /// `glibc.malloc.arena_max`): an operator's setting is left as it is.
        case leftToEnvironment
        /// The allocator refused the count (not 1 or more).
        case refused(Int)

        public var description: String {
            switch self {
            case .applied(let count): "at most \(count)"
            case .leftToEnvironment: "as the environment sets them (MALLOC_ARENA_MAX or GLIBC_TUNABLES)"
            case .refused(let count): "unlimited: the allocator refused a limit of \(count)"
            }
        }
    }

    /// Caps the arenas the allocator creates from now on, unless the environment already set
    /// them. Call it early, before the process starts its threads: arenas already made stay.
    @discardableResult
    public static func limitArenas(to count: Int, environment: [String: String]) -> ArenaLimit {
        if environment["MALLOC_ARENA_MAX"] != nil || environment["GLIBC_TUNABLES"]?.contains("glibc.malloc.arena_max") == true {
            return .leftToEnvironment
        }
        guard count >= 1, let cCount = Int32(exactly: count), hb_malloc_limit_arenas(cCount) == 0 else { return .refused(count) }
        return .applied(count)
    }
}
