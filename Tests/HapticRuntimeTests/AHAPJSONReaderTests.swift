import XCTest
@testable import HapticRuntime

final class AHAPJSONReaderTests: XCTestCase {
    private func syntaxError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> LocatedJSONSyntaxError? {
        do {
            let value = try LocatedJSONReader.read(text)
            XCTFail("expected a syntax error, read \(value)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    private func assertError(
        _ text: String, at line: Int, _ column: Int, _ message: String,
        file: StaticString = #filePath, sourceLine: UInt = #line
    ) {
        guard let error = syntaxError(text, file: file, line: sourceLine) else { return }
        XCTAssertEqual(error.position, LocatedJSON.Position(line: line, column: column), "\(error)", file: file, line: sourceLine)
        XCTAssertEqual(error.message, message, file: file, line: sourceLine)
    }

    func testEveryValueAndKeyHasItsLineAndColumn() throws {
        let value = try LocatedJSONReader.read("{\n  \"a\": [1, 2.5],\n\t\"b\": \"x\", \"c\": true, \"d\": null\n}")
        XCTAssertEqual(value.position, .init(line: 1, column: 1))
        guard case .object(let members) = value.kind else { return XCTFail("not an object") }
        XCTAssertEqual(members.map(\.key), ["a", "b", "c", "d"])
        XCTAssertEqual(members[0].keyPosition, .init(line: 2, column: 3))
        XCTAssertEqual(members[0].value.position, .init(line: 2, column: 8))
        guard case .array(let elements) = members[0].value.kind else { return XCTFail("not an array") }
        XCTAssertEqual(elements.map(\.position), [.init(line: 2, column: 9), .init(line: 2, column: 12)])
        XCTAssertEqual(elements.map(\.kind), [
            .number(.init(value: 1, literal: "1")), .number(.init(value: 2.5, literal: "2.5")),
        ])
        XCTAssertEqual(members[1].keyPosition, .init(line: 3, column: 2))
        XCTAssertEqual(members[1].value.kind, .string("x"))
        XCTAssertEqual(members[2].value.kind, .bool(true))
        XCTAssertEqual(members[3].value.kind, .null)
        XCTAssertEqual(members[3].value.position, .init(line: 3, column: 28))
    }

    func testColumnsCountCharactersNotBytes() {
        assertError("{\"é\": x}", at: 1, 7, "expected a value, found 'x'")
    }

    func testTrailingCommasAreAccepted() throws {
        let value = try LocatedJSONReader.read("{ \"a\": [1, 2, ], \"b\": {\"c\": 1,}, }")
        guard case .object(let members) = value.kind, case .array(let elements) = members[0].value.kind else {
            return XCTFail("unexpected shape \(value)")
        }
        XCTAssertEqual(members.count, 2)
        XCTAssertEqual(elements.count, 2)
    }

    func testBrokenStructureIsReportedAtTheFirstBadCharacter() {
        assertError("{\"a\": 1 \"b\": 2}", at: 1, 9, "expected ',' or '}' after object member, found '\"'")
        assertError("[1 2]", at: 1, 4, "expected ',' or ']' after array element, found '2'")
        assertError("{,}", at: 1, 2, "expected a string key or '}', found ','")
        assertError("[1,,2]", at: 1, 4, "expected a value, found ','")
        assertError("{\"a\" 1}", at: 1, 6, "expected ':' after object key \"a\", found '1'")
        assertError("{\n  \"a\": 1\n", at: 3, 1, "expected ',' or '}' after object member, found the end of the text")
        assertError("", at: 1, 1, "expected a value, found the end of the text")
        assertError("{} x", at: 1, 4, "unexpected 'x' after the end of the JSON value")
        assertError("[tru]", at: 1, 5, "expected a value (true?), found ']'")
        assertError("{'a': 1}", at: 1, 2, "expected a string key or '}', found \"'\"")
    }

    func testStrings() throws {
        let value = try LocatedJSONReader.read(#"["a\"b\\c\/d\n\t\u00e9\ud83d\ude00"]"#)
        guard case .array(let elements) = value.kind else { return XCTFail("not an array") }
        XCTAssertEqual(elements.first?.kind, .string("a\"b\\c/d\n\té😀"))
        assertError("[\"abc", at: 1, 6, "unterminated string (it starts at 1:2)")
        assertError("[\"a\nb\"]", at: 1, 4, "control character in a string; write it as an escape such as \\n")
        assertError(#"["a\qb"]"#, at: 1, 4, "invalid escape in a string: a backslash followed by 'q'")
        assertError(#"["\u12G4"]"#, at: 1, 7, "expected four hexadecimal digits after \\u, found 'G'")
        assertError(#"["\ud83d"]"#, at: 1, 3, "unpaired UTF-16 surrogate \\uD83D in a string")
        assertError(#"["\ude00"]"#, at: 1, 3, "unpaired UTF-16 surrogate \\uDE00 in a string")
    }

    func testNumbers() throws {
        let value = try LocatedJSONReader.read("[-0.5e2, 0, 12, 1E+2, 3.25]")
        guard case .array(let elements) = value.kind else { return XCTFail("not an array") }
        let numbers = elements.compactMap { element -> LocatedJSON.Number? in
            if case .number(let number) = element.kind { return number }
            return nil
        }
        XCTAssertEqual(numbers.map(\.value), [-50, 0, 12, 100, 3.25])
        XCTAssertEqual(numbers.map(\.literal), ["-0.5e2", "0", "12", "1E+2", "3.25"])
        assertError("[01]", at: 1, 3, "expected ',' or ']' after array element, found '1'")
        assertError("[1.]", at: 1, 4, "expected a digit after '.', found ']'")
        assertError("[-]", at: 1, 3, "expected a digit after the sign, found ']'")
        assertError("[1e]", at: 1, 4, "expected a digit after the exponent, found ']'")
        assertError("[1e999]", at: 1, 2, "number 1e999 is too large")
        assertError("[" + String(repeating: "9", count: 400) + "]", at: 1, 2,
                    "number " + String(repeating: "9", count: 24) + "… is too large")
        assertError("[\u{01}]", at: 1, 2, "expected a value, found the control character U+0001")
        assertError("[+1]", at: 1, 2, "expected a value, found '+'")
    }

    func testNestingIsLimited() throws {
        let deepest = LocatedJSONReader.maximumDepth
        XCTAssertNoThrow(try LocatedJSONReader.read(String(repeating: "[", count: deepest) + String(repeating: "]", count: deepest)))
        assertError(String(repeating: "[", count: deepest + 1), at: 1, deepest + 1,
                    "arrays and objects nested deeper than \(deepest) levels")
        // Hostile input far beyond the limit fails the same way instead of exhausting the stack.
        XCTAssertNotNil(syntaxError(String(repeating: "{\"a\":[", count: 100_000)))
    }

    func testByteOrderMarkIsSkipped() throws {
        let value = try LocatedJSONReader.read("\u{FEFF}{\"a\": 1}")
        XCTAssertEqual(value.position, .init(line: 1, column: 1))
    }
}
