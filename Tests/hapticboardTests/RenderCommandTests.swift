import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest

/// `hapticboard render` writes an SVG that parses as XML and has one event mark per event.
final class RenderCommandTests: XCTestCase {
    /// Counts elements by their `class` attribute.
    private final class ClassCounter: NSObject, XMLParserDelegate {
        var counts: [String: Int] = [:]
        var root: String?
        /// The drive polyline's points (x, y).
        var drive: [(Double, Double)] = []

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            if root == nil { root = name }
            if let type = attributes["class"] { counts[type, default: 0] += 1 }
            if attributes["class"] == "drive", let points = attributes["points"] {
                drive = points.split(separator: " ").compactMap { pair in
                    let values = pair.split(separator: ",").compactMap { Double($0) }
                    return values.count == 2 ? (values[0], values[1]) : nil
                }
            }
        }
    }

    private func render(_ example: String, events: Int, curves: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let svg = folder.appendingPathComponent("timeline.svg")
        let run = try BuiltCommand().run(["render", BuiltCommand.path(example), "--svg", svg.path, "--json"])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertEqual(try run.json()["events"] as? Int, events)
        let parser = try XCTUnwrap(XMLParser(contentsOf: svg))
        let counter = ClassCounter()
        parser.delegate = counter
        XCTAssertTrue(parser.parse(), "\(String(describing: parser.parserError))")
        XCTAssertEqual(counter.root, "svg")
        XCTAssertEqual(counter.counts["event"], events)
        XCTAssertEqual(counter.counts["curve", default: 0], curves)
        XCTAssertEqual(counter.counts["drive"], 1)
        // The simulated chip drove the actuator: the drive line leaves its baseline.
        let baseline = counter.drive.first?.1 ?? 0
        XCTAssertTrue(counter.drive.contains { $0.1 < baseline - 1 }, "flat drive: \(counter.drive.prefix(10))")
        XCTAssertEqual(counter.counts["acceleration"], 1)
        XCTAssertEqual(counter.counts["axis"], 1)
    }

    func testNotationExample() throws {
        // The continuous event's ADSR envelope is an intensity curve.
        try render("Examples/notation/success-confirmation.hnl", events: 7, curves: 1)
    }

    func testAHAPWithCurves() throws {
        try render("Examples/ahap/parameter-curves.ahap", events: 2, curves: 2)
    }

    func testAHAPWithAudioEvents() throws {
        try render("Examples/ahap/audio-custom.ahap", events: 4, curves: 0)
    }

    func testPNGWithoutAConverterIsAClearError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let run = try BuiltCommand().run(
            ["render", BuiltCommand.path("Examples/ahap/transients.ahap"), "--svg", folder.appendingPathComponent("t.svg").path, "--png", folder.appendingPathComponent("t.png").path],
            environment: ["PATH": folder.path]
        )
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.errorOutput.contains("rsvg-convert or convert"), run.errorOutput)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("t.svg").path))
    }

    func testBrokenContentIsLocated() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID().uuidString).hnl")
        try "loud sharp\nsoft sharpp\n".write(to: file, atomically: true, encoding: .utf8)
        let run = try BuiltCommand().run(["render", file.path, "--svg", "/dev/null"])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.errorOutput.contains("\(file.path):2:"), run.errorOutput)
    }
}
