extension Array {
    /// The index of the first element for which `isAtOrPast` holds, found by binary search:
    /// it must be false and then true along the array. `count` when it holds for none.
    func partitionIndex(where isAtOrPast: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if isAtOrPast(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
