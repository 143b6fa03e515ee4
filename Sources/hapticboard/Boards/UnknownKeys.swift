/// Any key, to list what a mapping really holds (a keyed container only shows keys it knows).
private struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension Decoder {
    /// Throws for a key the type does not know. Board files drive hardware: a misspelt
    /// `vib-rated-mv` silently replaced by a default could overdrive a motor, so unknown keys are
    /// errors here (unlike AHAP, where Apple's rule is to ignore them).
    func rejectUnknownKeys<Keys: CodingKey & CaseIterable>(_ known: Keys.Type) throws {
        try rejectUnknownKeys(knowing: Keys.allCases.map(\.stringValue))
    }

    /// The same for a mapping read by two types (an actuator entry that is also a PCM output).
    func rejectUnknownKeys<Keys: CodingKey & CaseIterable, MoreKeys: CodingKey & CaseIterable>(_ known: Keys.Type, _ more: MoreKeys.Type) throws {
        try rejectUnknownKeys(knowing: Keys.allCases.map(\.stringValue) + MoreKeys.allCases.map(\.stringValue))
    }

    private func rejectUnknownKeys(knowing names: [String]) throws {
        let container = try self.container(keyedBy: AnyCodingKey.self)
        let knownNames = Set(names)
        for key in container.allKeys where !knownNames.contains(key.stringValue) {
            let expected = knownNames.sorted().joined(separator: ", ")
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath + [key],
                debugDescription: "unknown key '\(key.stringValue)'; expected one of: \(expected)"
            ))
        }
    }
}
