/// A binary min-heap ordered by `areInIncreasingOrder`.
struct MinimumHeap<Element> {
    private var elements: [Element] = []
    private let areInIncreasingOrder: (Element, Element) -> Bool

    init(by areInIncreasingOrder: @escaping (Element, Element) -> Bool) {
        self.areInIncreasingOrder = areInIncreasingOrder
    }

    var peek: Element? { elements.first }

    mutating func push(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard areInIncreasingOrder(elements[child], elements[parent]) else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Element? {
        guard !elements.isEmpty else { return nil }
        elements.swapAt(0, elements.count - 1)
        let top = elements.removeLast()
        var parent = 0
        while true {
            let (left, right) = (2 * parent + 1, 2 * parent + 2)
            var smallest = parent
            if left < elements.count, areInIncreasingOrder(elements[left], elements[smallest]) { smallest = left }
            if right < elements.count, areInIncreasingOrder(elements[right], elements[smallest]) { smallest = right }
            guard smallest != parent else { return top }
            elements.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
