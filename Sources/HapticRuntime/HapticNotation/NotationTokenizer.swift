/// Splits notation text into lines of tokens. Blank and comment-only lines are dropped here, so they
/// never take part in indentation.
struct NotationTokenizer {
    let source: NotationSource

    func lines() throws(HapticNotationError) -> [NotationLine] {
        var result: [NotationLine] = []
        for (index, text) in source.lines.enumerated() {
            let line = try tokenize(Array(text), number: index + 1)
            if !line.tokens.isEmpty { result.append(line) }
        }
        return result
    }

    private func tokenize(_ characters: [Character], number lineNumber: Int) throws(HapticNotationError) -> NotationLine {
        var index = 0
        while index < characters.count, characters[index] == " " || characters[index] == "\t" {
            index += 1
        }
        let indentation = Array(characters[0..<index])
        var tokens: [NotationToken] = []

        func fail(_ kind: HapticNotationError.Kind, at position: Int) -> HapticNotationError {
            source.error(kind, line: lineNumber, column: position + 1)
        }

        while index < characters.count {
            let character = characters[index]
            let start = index
            if character == " " || character == "\t" || character == "\r" {
                index += 1
                continue
            }
            if character == "#" { break }
            if let punctuation = Self.punctuation[character] {
                if character == ".", index + 1 < characters.count, characters[index + 1].isDigit {
                    throw fail(.numberWithoutLeadingZero, at: index)
                }
                tokens.append(NotationToken(kind: punctuation, text: String(character), column: start + 1))
                index += 1
            } else if character.isDigit || (character == "-" && index + 1 < characters.count && characters[index + 1].isDigit) {
                tokens.append(try number(in: characters, from: &index, line: lineNumber))
            } else if character.isASCII && character.isLetter {
                tokens.append(try word(in: characters, from: &index, line: lineNumber))
            } else {
                throw fail(.unexpectedCharacter(character), at: index)
            }
        }
        return NotationLine(number: lineNumber, indentation: indentation, tokens: tokens)
    }

    private static let punctuation: [Character: NotationToken.Kind] = [
        ":": .colon, ",": .comma, ">": .arrow, ".": .dot, "(": .openParenthesis, ")": .closeParenthesis,
    ]

    /// `0.5`, `-0.6`, `0.3s`, `3x`.
    private func number(
        in characters: [Character], from index: inout Int, line: Int
    ) throws(HapticNotationError) -> NotationToken {
        let start = index
        let value = try decimal(in: characters, from: &index, line: line)
        let digitsEnd = index
        while index < characters.count, characters[index].isWordCharacter { index += 1 }
        let text = String(characters[start..<index])
        let unit = String(characters[digitsEnd..<index])
        let kind: NotationToken.Kind
        switch unit {
        case "": kind = .number(value)
        case "s": kind = .time(value)
        case "x": kind = .count(value)
        default: throw source.error(.unknownUnit(unit), line: line, column: digitsEnd + 1)
        }
        return NotationToken(kind: kind, text: text, column: start + 1)
    }

    /// Keywords, aliases, names, and the raw values `i0.7` / `s0.3`.
    private func word(
        in characters: [Character], from index: inout Int, line: Int
    ) throws(HapticNotationError) -> NotationToken {
        let start = index
        let prefix = characters[index]
        if prefix == "i" || prefix == "s", index + 1 < characters.count, characters[index + 1].isDigit {
            index += 1
            let value = try decimal(in: characters, from: &index, line: line)
            guard index == characters.count || !characters[index].isWordCharacter else {
                while index < characters.count, characters[index].isWordCharacter { index += 1 }
                let text = String(characters[start..<index])
                throw source.error(.invalidNumber(text), line: line, column: start + 1)
            }
            let text = String(characters[start..<index])
            let kind: NotationToken.Kind = prefix == "i" ? .intensityValue(value) : .sharpnessValue(value)
            return NotationToken(kind: kind, text: text, column: start + 1)
        }
        while index < characters.count, characters[index].isWordCharacter { index += 1 }
        let text = String(characters[start..<index])
        return NotationToken(kind: .word(text), text: text, column: start + 1)
    }

    /// Digits with an optional fraction; a second fraction (`1.2.3`) or an overflow is an error.
    private func decimal(
        in characters: [Character], from index: inout Int, line: Int
    ) throws(HapticNotationError) -> Double {
        let start = index
        if characters[index] == "-" { index += 1 }
        func skipDigits() { while index < characters.count, characters[index].isDigit { index += 1 } }
        skipDigits()
        if index + 1 < characters.count, characters[index] == ".", characters[index + 1].isDigit {
            index += 1
            skipDigits()
        }
        var end = index
        while end + 1 < characters.count, characters[end] == ".", characters[end + 1].isDigit {
            end += 1
            while end < characters.count, characters[end].isDigit { end += 1 }
        }
        let text = String(characters[start..<index])
        guard end == index, let value = Double(text), value.isFinite else {
            throw source.error(.invalidNumber(String(characters[start..<end])), line: line, column: start + 1)
        }
        return value
    }
}

extension Character {
    fileprivate var isDigit: Bool { isASCII && isNumber }
    fileprivate var isWordCharacter: Bool { isASCII && (isLetter || isNumber || self == "_") }
}
