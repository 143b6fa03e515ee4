import ActuatorHAL
import Foundation
@testable import hapticboard
import XCTest

/// The answers the service sends against the schemas its OpenAPI document gives them: a client
/// generated from the document (openapi-python-client, Schemathesis's checks) reads them, so a
/// field added, renamed or retyped on one side only fails here.
extension ServeTests {
    func testAnswersConformToTheDocumentsSchemas() throws {
        let document = try JSONDocument(Data(OpenAPIDocument.text.utf8))
        let conformance = JSONSchemaConformance(document: document)
        func check(_ method: HTTPMethodName, _ path: String, body: String? = nil, documented: String, status: Int) throws {
            let answer = try request(method, path, body: body)
            XCTAssertEqual(answer.status, status, "\(method) \(path): \(String(decoding: answer.body, as: UTF8.self))")
            let schema = try XCTUnwrap(Self.answerSchema(in: document, method.rawValue.lowercased(), documented, status: status), "\(method) \(documented) \(status)")
            XCTAssertEqual(conformance.problems(of: try JSONDocument(answer.body), against: schema), [], "\(method) \(path)")
        }
        try check(.get, "/status", documented: "/status", status: 200)
        try check(.get, "/board", documented: "/board", status: 200)
        try check(.get, "/profile", documented: "/profile", status: 200)
        try check(.post, "/feedback/impact/rigid?outlive=true", documented: "/feedback/impact/{style}", status: 201)
        try check(.post, "/play/notation?outlive=true", body: "loud sharp\n. 2s\nsoft dull\n", documented: "/play/notation", status: 201)
        try check(.get, "/players", documented: "/players", status: 200)
        try check(.post, "/feedback/notification/error?wait=true", documented: "/feedback/notification/{type}", status: 200)
        try check(.post, "/play/effect/47?wait=true", documented: "/play/effect/{id}", status: 200)
        try check(.post, "/play/library/missing", documented: "/play/library/{name}", status: 404)
        try check(.post, "/play/effect/0", documented: "/play/effect/{id}", status: 400)
        try check(.delete, "/players", documented: "/players", status: 200)
    }

    /// `boards show --json` is `/board`'s answer: every board in the repository, with a stored
    /// calibration on each actuator, matches the document's Board schema.
    func testEveryBoardsReportConformsToTheBoardSchema() throws {
        let document = try JSONDocument(Data(OpenAPIDocument.text.utf8))
        let conformance = JSONSchemaConformance(document: document)
        let schema = JSONDocument.object(["$ref": .string("#/components/schemas/Board")])
        let files = try FileManager.default.contentsOfDirectory(atPath: BuiltCommand.path("Boards")).filter { $0.hasSuffix(".yml") }.sorted()
        XCTAssertGreaterThan(files.count, 5)
        for file in files {
            let board = try CommandBoard.open(BuiltCommand.path("Boards/\(file)"), simulatingEveryDevice: true)
            var calibrations = CalibrationStore.Contents()
            for actuator in board.opened.board.actuatorNames {
                calibrations.store(DRV2605CalibrationResult(compensation: 0x0C, backEMF: 0x6C, backEMFGain: 2), board: board.opened.board.name, actuator: actuator, at: Date())
            }
            for stored in [CalibrationStore.Contents(), calibrations] {
                let report = try JSONDocument(JSONEncoder().encode(BoardShowReport(board: board.opened, calibrations: stored)))
                XCTAssertEqual(conformance.problems(of: report, against: schema), [], file)
            }
        }
    }

    /// The schema of an answer with `status` to `method path`, through a `$ref` to a shared response.
    private static func answerSchema(in document: JSONDocument, _ method: String, _ path: String, status: Int) -> JSONDocument? {
        var response = document["paths"]?[path]?[method]?["responses"]?["\(status)"]
        if case .string(let reference)? = response?["$ref"], let name = reference.split(separator: "/").last {
            response = document["components"]?["responses"]?[String(name)]
        }
        return response?["content"]?["application/json"]?["schema"]
    }
}
