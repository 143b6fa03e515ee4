/// Every register of a chip with its name and decoded fields, as `hapticboard registers` prints it.
public struct DRV2605RegisterDump: Sendable, Hashable, Codable {
    /// One field of one register.
    public struct FieldValue: Sendable, Hashable, Codable {
        public var name: String
        public var value: UInt8

        public init(name: String, value: UInt8) {
            self.name = name
            self.value = value
        }
    }

    /// One register.
    public struct Entry: Sendable, Hashable, Codable {
        public var name: String
        public var address: UInt8
        public var value: UInt8
        public var fields: [FieldValue]

        public init(register: DRV2605Register, value: UInt8) {
            name = register.datasheetName
            address = register.rawValue
            self.value = value
            fields = register.fields.map { FieldValue(name: $0.name, value: $0.value(in: value)) }
        }
    }

    public var entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    /// The value read from `register`, if it is in the dump.
    public func value(of register: DRV2605Register) -> UInt8? {
        entries.first { $0.address == register.rawValue }?.value
    }
}

extension DRV2605 {
    /// Reads every register, 0x00–0x22, one at a time.
    public func dumpRegisters() throws(DRV2605Error) -> DRV2605RegisterDump {
        var entries: [DRV2605RegisterDump.Entry] = []
        for register in DRV2605Register.allCases {
            entries.append(DRV2605RegisterDump.Entry(register: register, value: try readRegister(register)))
        }
        return DRV2605RegisterDump(entries: entries)
    }
}
