import ActuatorHAL

/// What a scheduled command runs: a closure, or a long-lived target and an argument, which lets a
/// player schedule thousands of commands without allocating a closure context for each.
enum ScheduledAction: Sendable {
    case closure(@Sendable () throws -> Void)
    case target(any ScheduledCommandTarget, Int)

    func run() throws {
        switch self {
        case .closure(let body): try body()
        case .target(let target, let argument): try target.runScheduledCommand(argument)
        }
    }
}

/// An object that runs many scheduled commands, told apart by an argument.
protocol ScheduledCommandTarget: AnyObject, Sendable {
    func runScheduledCommand(_ argument: Int) throws
}

/// A command waiting in the scheduler.
struct ScheduledCommand: Sendable {
    let token: ScheduledToken
    let deadline: MonotonicInstant
    let commandClass: CommandClass
    let costKey: CostKey
    /// Where the key's queue and learned lead are in `PendingCommands`, so running the command
    /// never hashes its key.
    let queue: Int
    let action: ScheduledAction

    /// Earlier deadline first; equal deadlines in schedule order.
    func precedes(_ other: ScheduledCommand) -> Bool {
        (deadline, token.sequence) < (other.deadline, other.token.sequence)
    }
}

/// A binary min-heap of commands ordered by `ScheduledCommand.precedes`.
struct CommandHeap {
    private var items: [ScheduledCommand] = []

    var first: ScheduledCommand? { items.first }
    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }

    mutating func insert(_ command: ScheduledCommand) {
        items.append(command)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].precedes(items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func removeFirst() -> ScheduledCommand? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let first = items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < items.count, items[left].precedes(items[smallest]) { smallest = left }
            if right < items.count, items[right].precedes(items[smallest]) { smallest = right }
            guard smallest != parent else { break }
            items.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }

    /// Empties the heap but keeps its storage, so refilling does not allocate.
    mutating func removeAll() {
        items.removeAll(keepingCapacity: true)
    }
}
