extension Sequence {
    /// The elements in time order; elements with equal times keep their order, which the
    /// standard library's sort does not promise. AHAP reading and writing both rely on it so
    /// that read → write → read keeps simultaneous events in file order.
    func sortedByTimeKeepingOrder(_ time: (Element) -> Double) -> [Element] {
        Array(self).sortedKeepingOrder(by: time)
    }
}

extension Array {
    /// The elements by `key`, elements with equal keys in their current order. Usually they
    /// already are in order (a compiled program, a player's plan), which one pass finds: they are
    /// then returned as they are, what the stable sort gives, without copying each element out
    /// and back. A NaN key is never "in order" and takes the sort, as it always did.
    func sortedKeepingOrder<Key: Comparable>(by key: (Element) -> Key) -> [Element] {
        var index = startIndex
        while index + 1 < endIndex, key(self[index]) <= key(self[index + 1]) { index += 1 }
        if index + 1 >= endIndex { return self }
        return enumerated()
            .sorted { (key($0.element), $0.offset) < (key($1.element), $1.offset) }
            .map(\.element)
    }
}
