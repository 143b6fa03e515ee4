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

/// Every problem decoding a board file meets, kept instead of thrown so that one run reports
/// them all (a missing `buses`, an unknown key and a bad value, not only the first). The
/// decoder carries it in its `userInfo`; decoding goes on with a fallback after each.
/// `@unchecked Sendable` because decoders want `Sendable` user info: one decoding, on one thread,
/// uses it and then reads it.
final class BoardDecodingProblems: @unchecked Sendable {
    /// Whether the reader takes a number written with colons (`1:30`) in base 60, as YAML 1.1
    /// does: such a number is refused before the reader sees it (`KeyedDecodingContainer.optional`).
    /// A JSON reader keeps numbers apart from text, so a string where a number belongs is just
    /// that (a wrong type).
    let readsBaseSixty: Bool
    private(set) var errors: [DecodingError] = []
    /// The values decoding could not read — each problem's, and each misspelt key's — where a
    /// fallback stands in.
    private(set) var unreadPaths: [BoardKeyPath] = []
    /// Keys an unknown key was taken for a misspelling of, by mapping (`actuators[0]/vib-rated-mv`):
    /// the key is not reported missing as well.
    private var suggested: Set<String> = []

    /// The user-info key the decoder carries it under.
    static let userInfoKey = CodingUserInfoKey(rawValue: "hapticboard.boardDecodingProblems")!

    init(readsBaseSixty: Bool = true) {
        self.readsBaseSixty = readsBaseSixty
    }

    func record(_ error: DecodingError) {
        errors.append(error)
        unreadPaths.append(BoardKeyPath(problemOf: error))
    }

    /// A value not read, whose problem another one reports.
    func recordUnread(_ error: DecodingError) {
        unreadPaths.append(BoardKeyPath(problemOf: error))
    }

    func recordSuggestion(_ key: String, at codingPath: [any CodingKey]) {
        suggested.insert(Self.place(key, codingPath))
    }

    /// Whether an unknown key in the mapping at `codingPath` was reported as a misspelling of `key`.
    func wasSuggested(_ key: String, at codingPath: [any CodingKey]) -> Bool {
        suggested.contains(Self.place(key, codingPath))
    }

    private static func place(_ key: String, _ codingPath: [any CodingKey]) -> String {
        "\(BoardKeyPath(codingPath: codingPath))/\(key)"
    }
}

extension Decoder {
    /// Where this decoding records its problems (a private, discarded list when nobody asked).
    var boardProblems: BoardDecodingProblems {
        userInfo[BoardDecodingProblems.userInfoKey] as? BoardDecodingProblems ?? BoardDecodingProblems()
    }

    /// Records a problem for each key the type does not know. Board files drive hardware: a
    /// misspelt `vib-rated-mv` silently replaced by a default could overdrive a motor, so unknown
    /// keys are problems here (unlike AHAP, where Apple's rule is to ignore them).
    func reportUnknownKeys<Keys: CodingKey & CaseIterable>(_ known: Keys.Type) {
        reportUnknownKeys(knowing: Keys.allCases.map(\.stringValue))
    }

    /// The same for a mapping read by two types (an actuator entry that is also a PCM output).
    func reportUnknownKeys<Keys: CodingKey & CaseIterable, MoreKeys: CodingKey & CaseIterable>(_ known: Keys.Type, _ more: MoreKeys.Type) {
        reportUnknownKeys(knowing: Keys.allCases.map(\.stringValue) + MoreKeys.allCases.map(\.stringValue))
    }

    /// The same for a mapping read by three types (an actuator entry that may be a PCM output or
    /// an input device).
    func reportUnknownKeys<Keys: CodingKey & CaseIterable, MoreKeys: CodingKey & CaseIterable, OtherKeys: CodingKey & CaseIterable>(
        _ known: Keys.Type, _ more: MoreKeys.Type, _ other: OtherKeys.Type
    ) {
        reportUnknownKeys(knowing: Keys.allCases.map(\.stringValue) + MoreKeys.allCases.map(\.stringValue) + OtherKeys.allCases.map(\.stringValue))
    }

    private func reportUnknownKeys(knowing names: [String]) {
        // Not a mapping at all: the caller's container reports that.
        guard let container = try? self.container(keyedBy: AnyCodingKey.self) else { return }
        let knownNames = Set(names)
        let keys = container.allKeys
        let unknownKeys = keys.filter { !knownNames.contains($0.stringValue) }
        guard !unknownKeys.isEmpty else { return }
        let problems = boardProblems
        // Worked out once per mapping, not per unknown key: per key it was the known names' count
        // times the key count, 36 s of CPU for a mapping of 3,000 unknown keys.
        let missing = knownNames.subtracting(keys.map(\.stringValue)).sorted()
        let expected = "expected one of: \(knownNames.sorted().joined(separator: ", "))"
        for key in unknownKeys {
            let hint: String
            // A near spelling of a key the mapping lacks is that key misspelt.
            if let meant = NameSuggestion.nearest(to: key.stringValue, in: missing) {
                hint = "did you mean '\(meant)'?"
                problems.recordSuggestion(meant, at: codingPath)
            } else {
                hint = expected
            }
            problems.record(.dataCorrupted(.init(codingPath: codingPath + [key], debugDescription: "unknown key '\(key.stringValue)'; \(hint)")))
        }
    }
}

extension KeyedDecodingContainer {
    /// The value at `key`; when it is missing or not a `T`, `fallback`, with the problem recorded.
    func required<T: Decodable>(_ type: T.Type, _ key: Key, or fallback: T, problems: BoardDecodingProblems) -> T {
        guard contains(key) else {
            let missing = DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
            if problems.wasSuggested(key.stringValue, at: codingPath) {
                problems.recordUnread(missing)
            } else {
                problems.record(missing)
            }
            return fallback
        }
        return optional(type, key, problems: problems) ?? fallback
    }

    /// The value at `key` when present; nil, with the problem recorded, when it is not a `T`.
    func optional<T: Decodable>(_ type: T.Type, _ key: Key, problems: BoardDecodingProblems) -> T? {
        if problems.readsBaseSixty, let text = baseSixtyNumber(type, key) {
            problems.record(.dataCorrupted(.init(
                codingPath: codingPath + [key],
                debugDescription: "'\(text)' is not a number here: write it in decimal (YAML 1.1 would read a number with colons in base 60, 1:30 as 90)"
            )))
            return nil
        }
        do {
            return try decodeIfPresent(type, forKey: key)
        } catch let error as DecodingError {
            problems.record(error)
        } catch {
            problems.record(.dataCorrupted(.init(codingPath: codingPath + [key], debugDescription: "\(error)")))
        }
        return nil
    }

    /// A number (or a list of numbers) `key` holds in colon form, when it does. YAML 1.1, which
    /// Yams reads, takes `1:30` as 90 (base 60): a board's `vib-rated-mv: 2:00` would silently
    /// be 120 mV. And Yams multiplies the digits out without checking: an integer of a dozen
    /// such digits trapped the decoding (a fuzz finding), so it is refused before Yams reads it.
    private func baseSixtyNumber<T>(_ type: T.Type, _ key: Key) -> String? {
        let texts: [String]?
        if T.self is any Numeric.Type {
            texts = (try? decodeIfPresent(String.self, forKey: key)).map { [$0] }
        } else if T.self is [Int].Type || T.self is [Double].Type {
            texts = try? decodeIfPresent([String].self, forKey: key)
        } else {
            return nil
        }
        return texts?.first { $0.contains(":") }
    }
}
