import Foundation

/// Reads the JSON a WebSocket `play` message usually is — one object whose values are plain
/// strings, integers and booleans — into the dictionary `JSONSerialization` would make of it,
/// without `JSONSerialization`: 17,200 instructions a message before its first register write,
/// most of them building Foundation objects (docs/service.md).
///
/// It gives up (nil) on anything else, and the caller reads the text with `JSONSerialization`
/// as before: a string with an escape or a control character, text that is not UTF-8, a number
/// with a fraction or an exponent or beyond `Int`, `null`, an array or an object as a value, a
/// key given twice, and text that is not JSON at all. Where it answers, its values are those
/// `JSONSerialization` makes (strings as `String`, numbers and booleans as `NSNumber`), so what
/// the session reads from them is the same either way (`FlatJSONObjectTests` compare).
enum FlatJSONObject {
    static func read(_ bytes: UnsafeRawBufferPointer) -> [String: Any]? {
        var reader = Reader(bytes: bytes)
        return reader.object()
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        mutating func object() -> [String: Any]? {
            skipWhitespace()
            guard take(UInt8(ascii: "{")) else { return nil }
            // Room for every field a play message may have, so it is not grown on the way.
            var result = [String: Any](minimumCapacity: 16)
            skipWhitespace()
            if !take(UInt8(ascii: "}")) {
                repeat {
                    skipWhitespace()
                    guard let key = string() else { return nil }
                    skipWhitespace()
                    guard take(UInt8(ascii: ":")) else { return nil }
                    skipWhitespace()
                    guard let value = value(), result.updateValue(value, forKey: key) == nil else { return nil }
                    skipWhitespace()
                } while take(UInt8(ascii: ","))
                guard take(UInt8(ascii: "}")) else { return nil }
            }
            skipWhitespace()
            return index == bytes.count ? result : nil
        }

        private mutating func value() -> Any? {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true") ? NSNumber(value: true) : nil
            case UInt8(ascii: "f"): return literal("false") ? NSNumber(value: false) : nil
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return integer().map { NSNumber(value: $0) }
            default: return nil
            }
        }

        /// A string without escapes or control characters, in valid UTF-8.
        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            var isASCII = true
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    defer { index += 1 }
                    let text = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                    // ASCII is valid UTF-8, and String's own reading of it is several times quicker
                    // than a validating one.
                    return isASCII ? String(decoding: text.assumingMemoryBound(to: UInt8.self), as: UTF8.self) : String(validating: text, as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                isASCII = isASCII && byte < 0x80
                index += 1
            }
            return nil
        }

        /// An integer as JSON writes one (no leading zeros, no `+`), followed by no fraction or exponent.
        private mutating func integer() -> Int? {
            let negative = take(UInt8(ascii: "-"))
            let start = index
            var magnitude = 0
            while index < bytes.count, case UInt8(ascii: "0")...UInt8(ascii: "9") = bytes[index] {
                let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, carry) = times10.addingReportingOverflow(Int(bytes[index] - UInt8(ascii: "0")))
                guard !overflow, !carry else { return nil }
                magnitude = sum
                index += 1
            }
            let digits = index - start
            guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e") { return nil }
            // `-0` is left to JSONSerialization, whichever zero it makes of it.
            guard !(negative && magnitude == 0) else { return nil }
            return negative ? -magnitude : magnitude
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            let length = word.utf8CodeUnitCount
            guard bytes.count - index >= length, memcmp(bytes.baseAddress! + index, word.utf8Start, length) == 0 else { return false }
            index += length
            return true
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }
    }
}
