import ActuatorHAL
import BoardFiles
import Foundation
import XCTest
@testable import HapticRuntime

final class BoardConfigurationTests: XCTestCase {
    private let simFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Boards/sim.yml")

    /// `Boards/sim.yml`, which documents the built-in board.
    private var simYAML: String {
        get throws { try String(contentsOf: simFile, encoding: .utf8) }
    }

    func testTheBuiltInSimBoardIsBoardsSimYml() throws {
        XCTAssertEqual(try BuiltInBoard.sim().description, try BoardFile.load(path: simFile.path).description)
        XCTAssertEqual(Board.sim.source, "built-in board 'sim'")
    }

    func testTheSimActuatorIsA175HzTwoVoltLRA() throws {
        guard case .drv2605(_, let configuration) = Board.sim.actuators[0].drive else { return XCTFail("the sim actuator is a chip") }
        XCTAssertEqual(configuration.ratings, DRV2605Ratings(kind: .lra, loop: .closed, ratedVoltage: 2.0, overdriveVoltage: 2.8, resonantFrequency: 175))
        XCTAssertEqual(configuration.library, .lra)
        XCTAssertEqual(configuration.brakeFactor, 3)
        XCTAssertEqual(configuration.loopGain, 1)
    }

    private func configurationError(replacing old: String, with new: String) throws -> BoardFileError {
        let text = try simYAML.replacingOccurrences(of: old, with: new)
        XCTAssertNotEqual(text, try simYAML, "the edit must change the board")
        let file = try BoardFile.parse(text, path: "edited.yml")
        do {
            _ = try file.drv2605Configuration(forActuatorAt: 0)
        } catch {
            return error
        }
        XCTFail("no error for \(new)")
        throw ExpectedAnError()
    }

    private struct ExpectedAnError: Error {}

    func testImpossibleValuesAreLocatedAtTheirKey() throws {
        let text = try simYAML
        let line = { (key: String) -> Int? in
            text.split(separator: "\n", omittingEmptySubsequences: false)
                .firstIndex { $0.contains(key + ":") }.map { $0 + 1 }
        }
        let rated = try configurationError(replacing: "vib-rated-mv: 2000", with: "vib-rated-mv: 0")
        XCTAssertEqual(rated.keyPath?.description, "actuators[0].vib-rated-mv")
        XCTAssertEqual(rated.line, line("vib-rated-mv"))
        XCTAssertTrue(rated.description.hasPrefix("edited.yml:"), rated.description)

        let frequency = try configurationError(replacing: "resonant-frequency-hz: 175", with: "resonant-frequency-hz: 700")
        XCTAssertEqual(frequency.keyPath?.description, "actuators[0].resonant-frequency-hz")

        let mode = try configurationError(replacing: "actuator-mode: LRA", with: "actuator-mode: piezo")
        XCTAssertEqual(mode.keyPath?.description, "actuators[0].actuator-mode")

        let library = try configurationError(replacing: "library-sel: 6", with: "library-sel: 9")
        XCTAssertEqual(library.keyPath?.description, "actuators[0].library-sel")

        let gain = try configurationError(replacing: "loop: closed", with: "loop: closed\n    loop-gain: 5")
        XCTAssertEqual(gain.keyPath?.description, "actuators[0].loop-gain")
    }
}
