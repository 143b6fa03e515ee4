extension Sequence {
    /// The elements in time order; elements with equal times keep their order, which the
    /// standard library's sort does not promise. AHAP reading and writing both rely on it so
    /// that read → write → read keeps simultaneous events in file order.
    func sortedByTimeKeepingOrder(_ time: (Element) -> Double) -> [Element] {
        enumerated()
            .sorted { (time($0.element), $0.offset) < (time($1.element), $1.offset) }
            .map(\.element)
    }
}
