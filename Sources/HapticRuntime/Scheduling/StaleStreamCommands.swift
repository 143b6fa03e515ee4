/// The resync rule for streams: of the commands of one stream that are due together, only the one
/// with the latest deadline still matters; older values would only replay a past the actuator
/// should already have left.
enum StaleStreamCommands {
    /// Tokens of stream commands in `batch` superseded by a newer command of the same stream.
    static func tokens(in batch: [DueCommand]) -> Set<ScheduledToken> {
        guard batch.count > 1 else { return [] }
        var newest: [StreamID: ScheduledCommand] = [:]
        var stale: Set<ScheduledToken> = []
        for due in batch {
            guard case .stream(let stream) = due.command.commandClass else { continue }
            if let current = newest[stream] {
                if current.precedes(due.command) {
                    stale.insert(current.token)
                    newest[stream] = due.command
                } else {
                    stale.insert(due.command.token)
                }
            } else {
                newest[stream] = due.command
            }
        }
        return stale
    }
}
