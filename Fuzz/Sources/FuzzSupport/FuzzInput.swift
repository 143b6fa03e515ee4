/// Reads structured values from the front of a fuzz input; past its end every read is zero, so
/// any input decodes to something.
public struct FuzzInput {
    public private(set) var bytes: ArraySlice<UInt8>

    public init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        bytes = ArraySlice(UnsafeBufferPointer(start: data, count: size))
    }

    public var isEmpty: Bool { bytes.isEmpty }

    public mutating func byte() -> UInt8 {
        bytes.popFirst() ?? 0
    }

    public mutating func uint16() -> UInt16 {
        UInt16(byte()) | UInt16(byte()) << 8
    }

    public mutating func int16() -> Int16 { Int16(bitPattern: uint16()) }

    public mutating func uint32() -> UInt32 {
        UInt32(uint16()) | UInt32(uint16()) << 16
    }

    public mutating func float() -> Float { Float(bitPattern: uint32()) }

    public mutating func double() -> Double {
        Double(bitPattern: UInt64(uint32()) | UInt64(uint32()) << 32)
    }

    /// One of `choices`, by the next byte.
    public mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int(byte()) % choices.count]
    }

    /// The bytes up to the next 0 byte (or the end), the 0 consumed.
    public mutating func segment() -> ArraySlice<UInt8> {
        let end = bytes.firstIndex(of: 0) ?? bytes.endIndex
        let part = bytes[bytes.startIndex..<end]
        bytes = end < bytes.endIndex ? bytes[(end + 1)...] : bytes[end...]
        return part
    }

    /// The rest as text (invalid UTF-8 repaired, as a reader of bytes sees it).
    public mutating func text() -> String {
        defer { bytes = bytes[bytes.endIndex...] }
        return String(decoding: bytes, as: UTF8.self)
    }
}
