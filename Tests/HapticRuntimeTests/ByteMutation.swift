import HardwareMocks

/// The fuzz tests' mutations: a byte replaced or bit flipped, the tail cut, a fragment inserted,
/// a run removed or duplicated elsewhere.
enum ByteMutation {
    static func mutate(_ bytes: inout [UInt8], inserting fragments: [[UInt8]], using random: inout SplitMix64) {
        guard !bytes.isEmpty else {
            bytes = fragments.randomElement(using: &random) ?? []
            return
        }
        let position = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            bytes[position] = UInt8.random(in: 0...255, using: &random)
        case 1:
            bytes[position] ^= 1 << UInt8.random(in: 0..<8, using: &random)
        case 2:
            bytes.removeSubrange(position...)
        case 3:
            bytes.insert(contentsOf: fragments.randomElement(using: &random) ?? [], at: position)
        case 4:
            let end = min(bytes.count, position + Int.random(in: 1...40, using: &random))
            bytes.removeSubrange(position..<end)
        default:
            let end = min(bytes.count, position + Int.random(in: 1...200, using: &random))
            bytes.insert(contentsOf: bytes[position..<end], at: Int.random(in: 0..<bytes.count, using: &random))
        }
    }
}
