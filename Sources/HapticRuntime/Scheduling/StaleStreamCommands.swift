/// The resync rule for streams: of the commands of one stream that are due together, only the one
/// with the latest deadline still matters; older values would only replay a past the actuator
/// should already have left.
enum StaleStreamCommands {
    /// Whether `batch[index]` is a stream command superseded by a newer command of the same stream
    /// in `batch`. Batches are a handful of commands, so a scan beats building a set, and it
    /// allocates nothing on the timing thread.
    static func isStale(_ index: Int, in batch: [DueCommand]) -> Bool {
        guard batch.count > 1, case .stream(let stream) = batch[index].command.commandClass else { return false }
        let command = batch[index].command
        for other in batch.indices where other != index {
            guard case .stream(let otherStream) = batch[other].command.commandClass, otherStream == stream else { continue }
            if command.precedes(batch[other].command) { return true }
        }
        return false
    }
}
