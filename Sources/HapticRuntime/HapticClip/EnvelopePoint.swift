/// A point of a piecewise-linear envelope (amplitude or frequency over time), the unit both
/// envelope simplifications work on.
struct EnvelopePoint: Sendable, Hashable {
    var time: Double
    var value: Double
}

extension Array where Element == EnvelopePoint {
    /// The fewest points whose linear interpolation stays within `tolerance` of every point
    /// dropped: a greedy sweep that extends each segment while every point it skips lies within
    /// `tolerance` of it. The first and last points are always kept; so are both points of a step
    /// (two points at one time).
    func simplified(tolerance: Double) -> [EnvelopePoint] {
        guard count > 2 else { return self }
        var kept = [self[0]]
        var anchor = 0
        var candidate = 2
        while candidate < count {
            if !Self.segment(from: self[anchor], to: self[candidate], covers: self[(anchor + 1)..<candidate], within: tolerance) {
                anchor = candidate - 1
                kept.append(self[anchor])
            }
            candidate += 1
        }
        kept.append(self[count - 1])
        return kept
    }

    private static func segment(from start: EnvelopePoint, to end: EnvelopePoint, covers skipped: ArraySlice<EnvelopePoint>, within tolerance: Double) -> Bool {
        let span = end.time - start.time
        for point in skipped {
            // A step (equal times) cannot be bridged by a line.
            guard span > 0, point.time > start.time, point.time < end.time else { return false }
            let line = start.value + (end.value - start.value) * (point.time - start.time) / span
            if abs(line - point.value) > tolerance { return false }
        }
        return true
    }

    /// Visvalingam–Whyatt reduction to at most `perRegion` points in every `region` seconds (the
    /// design tools' breakpoint reduction): within each region the point whose triangle with its
    /// neighbours has the smallest area goes first, until the region is within its budget; each
    /// region keeps its first and last point. Then points whose triangle is smaller than
    /// `minimumArea` go too, so silence does not keep redundant points.
    func reducedByArea(perRegion: Int, region: Double = 1, minimumArea: Double = 1e-8) -> [EnvelopePoint] {
        guard let first = self.first, perRegion >= 2, region > 0 else { return self }
        var result: [EnvelopePoint] = []
        result.reserveCapacity(Swift.min(count, Int((last!.time - first.time) / region + 1) * perRegion))
        var start = 0
        var regionEnd = first.time + region
        let lastTime = self[count - 1].time
        while start < count {
            var end = start
            while end < count, self[end].time < regionEnd { end += 1 }
            if end == start { end = start + 1 }
            // A final, shorter region gets its share of the budget, so the density holds there too.
            let span = Swift.min(region, lastTime - (regionEnd - region))
            let budget = Swift.max(2, Int((Double(perRegion) * span / region).rounded(.up)))
            result += Array(self[start..<end]).reducedInOneRegion(to: budget, minimumArea: minimumArea)
            start = end
            regionEnd += region
        }
        return result
    }

    private func reducedInOneRegion(to budget: Int, minimumArea: Double) -> [EnvelopePoint] {
        guard count > 2 else { return self }
        var previous = Swift.Array(-1..<(count - 1))
        var next = Swift.Array(1...count)
        var removed = Swift.Array(repeating: false, count: count)
        func area(_ middle: Int) -> Double {
            let (a, b, c) = (self[previous[middle]], self[middle], self[next[middle]])
            return abs((a.time - b.time) * (c.value - b.value) - (c.time - b.time) * (a.value - b.value))
        }
        var heap = MinimumHeap<(area: Double, index: Int, left: Int, right: Int)>(by: { $0.area < $1.area })
        for index in 1..<(count - 1) { heap.push((area(index), index, index - 1, index + 1)) }
        var remaining = count
        while let smallest = heap.peek {
            let stale = removed[smallest.index] || previous[smallest.index] != smallest.left || next[smallest.index] != smallest.right
            if stale {
                _ = heap.pop()
                continue
            }
            guard remaining > budget || smallest.area < minimumArea else { break }
            _ = heap.pop()
            let (left, right) = (previous[smallest.index], next[smallest.index])
            removed[smallest.index] = true
            next[left] = right
            previous[right] = left
            remaining -= 1
            for neighbour in [left, right] where neighbour > 0 && neighbour < count - 1 {
                heap.push((area(neighbour), neighbour, previous[neighbour], next[neighbour]))
            }
        }
        return indices.filter { !removed[$0] }.map { self[$0] }
    }
}
