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
    let action: ScheduledAction

    /// Earlier deadline first; equal deadlines in schedule order.
    func precedes(_ other: ScheduledCommand) -> Bool {
        (deadline, token.sequence) < (other.deadline, other.token.sequence)
    }
}

/// A binary min-heap of commands ordered by `ScheduledCommand.precedes`.
///
/// Sifting works on the array's buffer: the standard library's generic `swapAt` and `first`,
/// unspecialized in a debug build, allocate a temporary for an element this large, and the heap
/// is on the timing thread's path for every command.
struct CommandHeap {
    private var items: [ScheduledCommand] = []

    /// What ordering needs of the first command, read without copying it: a copy retains and
    /// releases its key's strings and its action, and the queue looks at every head often.
    var firstOrder: (deadline: MonotonicInstant, token: ScheduledToken, kind: CommandClass.Kind)? {
        guard !items.isEmpty else { return nil }
        return items.withUnsafeBufferPointer { heap in
            // Matched in place: binding the class would copy its stream's name.
            let kind: CommandClass.Kind = switch heap[0].commandClass {
            case .stream: .stream
            case .housekeeping: .housekeeping
            case .transient, .control: .other
            }
            return (heap[0].deadline, heap[0].token, kind)
        }
    }

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }

    mutating func insert(_ command: ScheduledCommand) {
        items.append(command)
        items.withUnsafeMutableBufferPointer { heap in
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[child].precedes(heap[parent]) else { break }
                Self.swap(child, parent, in: heap)
                child = parent
            }
        }
    }

    mutating func removeFirst() -> ScheduledCommand? {
        guard !items.isEmpty else { return nil }
        items.withUnsafeMutableBufferPointer { heap in Self.swap(0, heap.count - 1, in: heap) }
        let first = items.removeLast()
        items.withUnsafeMutableBufferPointer { heap in
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
                if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
                guard smallest != parent else { break }
                Self.swap(parent, smallest, in: heap)
                parent = smallest
            }
        }
        return first
    }

    /// Makes room for `count` commands, so that filling the heap up to it does not allocate.
    mutating func reserveCapacity(_ count: Int) {
        items.reserveCapacity(count)
    }

    /// Empties the heap but keeps its storage, so refilling does not allocate.
    mutating func removeAll() {
        items.removeAll(keepingCapacity: true)
    }

    private static func swap(_ first: Int, _ second: Int, in heap: UnsafeMutableBufferPointer<ScheduledCommand>) {
        guard first != second else { return }
        let held = heap[first]
        heap[first] = heap[second]
        heap[second] = held
    }
}
