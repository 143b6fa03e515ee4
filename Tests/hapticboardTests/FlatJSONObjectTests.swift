import Foundation
import HapticRuntime
import HardwareMocks
import NIOCore
import XCTest
@testable import hapticboard

/// `FlatJSONObject` reads a WebSocket `play` message without `JSONSerialization`; where it
/// answers, the session must read from it exactly what it reads from `JSONSerialization`'s object.
final class FlatJSONObjectTests: XCTestCase {
    /// Messages of the shape it reads: strings, integers, booleans, one level.
    static let taken = [
        #"{"op": "play", "feedback": "impact", "style": "rigid"}"#,
        #"{"op":"play","feedback":"notification","type":"success","id":"tap-1"}"#,
        #" { "op" : "play" , "library" : "success" , "id" : 7 } "#,
        #"{"op":"play","effect":47,"priority":3,"outlive":true}"#,
        #"{"op":"play","effect":47,"outlive":false,"id":-12}"#,
        #"{"op":"play","event":"button-pressed","profile":"quiet"}"#,
        "{\"op\":\"play\",\"notation\":\"loud sharp\"}",
        #"{"op":"play","feedback":"impact","style":"médium","id":"ключ"}"#,
        #"{"op":"play","feedback":"impact","intensity":1}"#,
        #"{"op":"play","feedback":"impact","intensity":0}"#,
        // Refused by the session the same way whichever read them.
        #"{"op":"play","effect":"47"}"#,
        #"{"op":"play","effect":0}"#,
        #"{"op":"play","effect":9223372036854775807}"#,
        #"{"op":"play","priority":true,"effect":1}"#,
        #"{"op":"play","outlive":1,"effect":1}"#,
        #"{"op":"play","effect":1,"colour":"red"}"#,
        #"{"op":"play"}"#,
        #"{"op":"play","library":"a","event":"b"}"#,
        #"{"op":"play","feedback":"impact","intensity":"loud"}"#,
        #"{"op":"play","profile":"loud","event":"button-pressed"}"#,
        #"{"op":"play","actuators":"left","effect":1}"#,
        "{}",
        #"{"":""}"#,
    ]

    /// Messages left to `JSONSerialization`.
    static let left = [
        #"{"op":"play","notation":"loud sharp\n. 0.1s\nsoft dull\n"}"#,
        #"{"op":"play","feedback":"impact","intensity":0.5}"#,
        #"{"op":"play","feedback":"impact","intensity":1e0}"#,
        #"{"op":"play","feedback":"impact","intensity":1E0}"#,
        #"{"op":"play","effect":-0}"#,
        #"{"op":"play","effect":047}"#,
        #"{"op":"play","effect":99999999999999999999}"#,
        #"{"op":"play","actuators":["left"],"effect":1}"#,
        #"{"op":"play","ahap":{"Pattern":[]}}"#,
        #"{"op":"play","id":null,"effect":1}"#,
        #"{"op":"play","effect":1,"effect":2}"#,
        #"{"op":"play","effect":1,}"#,
        #"{"op":"play" "effect":1}"#,
        #"{"op":"play","effect":1}x"#,
        #"{"op":"play","outlive":truth}"#,
        #"["op","play"]"#,
        "{\"op\":\"pl\tay\"}",
        "",
        "{",
    ]

    func testTheCommonShapesAreReadAndTheRestLeftToJSONSerialization() {
        for text in Self.taken { XCTAssertNotNil(read(text), text) }
        for text in Self.left { XCTAssertNil(read(text), text) }
        // Not UTF-8: JSONSerialization refuses it; so must this reader, by leaving it.
        XCTAssertNil([UInt8(ascii: "{"), UInt8(ascii: "\""), 0xFF, UInt8(ascii: "\""), UInt8(ascii: ":"), UInt8(ascii: "1"), UInt8(ascii: "}")].withUnsafeBytes(FlatJSONObject.read))
    }

    func testTheSessionReadsTheSameRequestFromEitherObject() throws {
        for text in Self.taken {
            let flat = try XCTUnwrap(read(text), text)
            let reference = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
            XCTAssertEqual(Set(flat.keys), Set(reference.keys), text)
            XCTAssertEqual(flat["op"] as? String, reference["op"] as? String, text)
            XCTAssertEqual(id(flat), id(reference), text)
            XCTAssertEqual(outcome(flat), outcome(reference), text)
        }
    }

    func testValuesAreThoseJSONSerializationMakes() throws {
        let object = try XCTUnwrap(read(#"{"s":"ä","i":-42,"t":true,"f":false}"#))
        XCTAssertEqual(object["s"] as? String, "ä")
        XCTAssertEqual(object["i"] as? Int, -42)
        XCTAssertEqual(object["i"] as? Double, -42)
        XCTAssertEqual(object["t"] as? Bool, true)
        XCTAssertEqual(object["f"] as? Bool, false)
    }

    /// What the event-loop handler reads from a frame's buffer and the session from a message's
    /// text: the reader's object where it answers, JSONSerialization's otherwise, which throws
    /// for text that is not JSON.
    func testTheHandlerAndTheSessionReadEveryMessageEitherWay() throws {
        for text in Self.taken + Self.left {
            let reference = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            let handled = WebSocketTriggerHandler.object(in: ByteBuffer(string: text))
            let session = try? Array(text.utf8).withUnsafeBytes(WebSocketSession.object)
            for object in [handled, session] {
                XCTAssertEqual(object.map { Set($0.keys) }, reference.map { Set($0.keys) }, text)
                if let object, let reference { XCTAssertEqual(outcome(object), outcome(reference), text) }
            }
        }
        XCTAssertThrowsError(try Array(#"{"op":"play","effect":"#.utf8).withUnsafeBytes(WebSocketSession.object))
    }

    /// Texts put together from JSON's tokens and a few that break it (a seeded generator, so every
    /// run is the same): wherever the reader answers, JSONSerialization reads the same object; and
    /// generated flat objects of the shape it takes are read.
    func testGeneratedTextsAreReadAsJSONSerializationReadsThem() throws {
        let tokens = [
            "{", "}", "{", "}", ":", ",", ",", " ", "\n", #""op""#, #""play""#, #""effect""#, #""id""#, #""é""#, #""""#,
            #""a\nb""#, "\"", "0", "7", "-", "-3", "12", "01", ".5", "e2", "E", "true", "false", "tru", "null", "[", "]",
            "9223372036854775807", "9223372036854775808", "\u{7F}", "\t",
        ]
        let values = [#""v""#, "-42", "0", "31", "true", "false", #""ß""#, #""""#]
        var random = SplitMix64(seed: 0x6A73_6F6E)
        var takenFromTokens = 0
        for index in 0..<20_000 {
            var text: String
            var isFlat = false
            if index.isMultiple(of: 2) {
                // A flat object of the shape the reader takes; one in five with a token spliced in.
                let count = Int.random(in: 0...5, using: &random)
                text = "{" + (0..<count).map { #""k\#($0)": "# + values.randomElement(using: &random)! }.joined(separator: ",") + "}"
                if index.isMultiple(of: 10) {
                    let at = text.index(text.startIndex, offsetBy: Int.random(in: 0...text.count, using: &random))
                    text.insert(contentsOf: tokens.randomElement(using: &random)!, at: at)
                } else {
                    isFlat = true
                }
            } else {
                text = (0..<Int.random(in: 1...12, using: &random)).map { _ in tokens.randomElement(using: &random)! }.joined()
            }
            guard let flat = read(text) else {
                XCTAssertFalse(isFlat, "a flat object of the shape it takes was left to JSONSerialization: \(text)")
                continue
            }
            if !index.isMultiple(of: 2) { takenFromTokens += 1 }
            let reference = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "read, but not by JSONSerialization: \(text)")
            XCTAssertEqual(NSDictionary(dictionary: flat), NSDictionary(dictionary: reference), text)
            for (key, value) in flat { XCTAssertEqual(value is String, reference[key] is String, "\(key) in \(text)") }
        }
        // The token texts that happen to be flat objects are compared too.
        XCTAssertGreaterThan(takenFromTokens, 0)
    }

    private func read(_ text: String) -> [String: Any]? {
        Array(text.utf8).withUnsafeBytes(FlatJSONObject.read)
    }

    /// The request the session makes of a play message, or the refusal, as text.
    private func outcome(_ object: [String: Any]) -> String {
        do {
            return "\(try WebSocketSession.playRequest(object))"
        } catch {
            return "refused: \(error)"
        }
    }

    private func id(_ object: [String: Any]) -> String? {
        guard let value = object["id"].flatMap(JSONValue.init) else { return nil }
        return String(decoding: (try? JSONEncoder().encode(value)) ?? Data(), as: UTF8.self)
    }
}
