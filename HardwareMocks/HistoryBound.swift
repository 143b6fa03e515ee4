extension Array {
    /// Under a history limit, lets go of the oldest elements once more than twice `limit` are
    /// kept, keeping the newest `limit`: one copy per `limit` appends rather than one per append.
    /// Nil: everything is kept.
    mutating func keepNewest(_ limit: Int?) {
        if let limit, count > 2 * limit { removeFirst(count - limit) }
    }
}
