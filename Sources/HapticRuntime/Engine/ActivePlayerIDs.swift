/// The ids of the players using one actuator (`ActuatorChannel.activePlayers`), in the order they
/// claimed it. A handful at most — the players one actuator mixes — so a plain array searched in
/// order: a `Set<Int>` hashed the id (SipHash) on every start and end, about 320 of the 9,900
/// instructions from an `EV_FF` play to its first register write.
struct ActivePlayerIDs: Sequence, ExpressibleByArrayLiteral {
    private var ids: [Int] = []

    init(arrayLiteral ids: Int...) {
        for id in ids { insert(id) }
    }

    var isEmpty: Bool { ids.isEmpty }

    func contains(_ id: Int) -> Bool { ids.contains(id) }

    mutating func insert(_ id: Int) {
        if !ids.contains(id) { ids.append(id) }
    }

    mutating func remove(_ id: Int) {
        if let index = ids.firstIndex(of: id) { ids.remove(at: index) }
    }

    func makeIterator() -> IndexingIterator<[Int]> { ids.makeIterator() }
}
