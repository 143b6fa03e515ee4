import Foundation
import XCTest
@testable import HapticRuntime

/// AudioCustom waveform paths resolve inside the AHAP file's folder and nowhere else.
final class AHAPWaveformPathTests: XCTestCase {
    private var outside: TemporaryFolder!
    private var folder: TemporaryFolder!
    private var ahapFile: URL!

    override func setUpWithError() throws {
        outside = try TemporaryFolder()
        folder = try TemporaryFolder()
        _ = try outside.write("secret", to: "secret.wav")
        _ = try folder.write("RIFF", to: "click.wav")
        _ = try folder.write("RIFF", to: "sounds/hit.wav")
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("folder.wav"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("escape.wav"),
            withDestinationURL: outside.url.appendingPathComponent("secret.wav"))
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("alias.wav"),
            withDestinationURL: folder.url.appendingPathComponent("sounds/hit.wav"))
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("up"), withDestinationURL: outside.url)
        ahapFile = folder.url.appendingPathComponent("pattern.ahap")
    }

    override func tearDown() {
        outside = nil
        folder = nil
    }

    private func resolve(_ path: String) -> Result<URL, AHAPWaveformPathProblem> {
        do {
            return .success(try AHAP.resolveWaveform(path, relativeTo: ahapFile))
        } catch {
            return .failure(error)
        }
    }

    private func realPath(_ relative: String) -> String {
        folder.url.appendingPathComponent(relative).resolvingSymlinksInPath().path
    }

    func testPathsInsideTheFolderResolve() throws {
        XCTAssertEqual(try resolve("click.wav").get().path, realPath("click.wav"))
        XCTAssertEqual(try resolve("sounds/hit.wav").get().path, realPath("sounds/hit.wav"))
        XCTAssertEqual(try resolve("./sounds/../click.wav").get().path, realPath("click.wav"))
        XCTAssertEqual(try resolve("alias.wav").get().path, realPath("sounds/hit.wav"))
    }

    func testPathsLeavingTheFolderAreRefused() {
        XCTAssertEqual(resolve(""), .failure(.empty))
        XCTAssertEqual(resolve(outside.url.appendingPathComponent("secret.wav").path), .failure(.absolute))
        XCTAssertEqual(resolve("../secret.wav"), .failure(.leavesFolder))
        XCTAssertEqual(resolve("sounds/../../secret.wav"), .failure(.leavesFolder))
        let secret = outside.url.appendingPathComponent("secret.wav").resolvingSymlinksInPath().path
        XCTAssertEqual(resolve("escape.wav"), .failure(.linkLeavesFolder(resolvedPath: secret)))
        XCTAssertEqual(resolve("up/secret.wav"), .failure(.linkLeavesFolder(resolvedPath: secret)))
        XCTAssertEqual(resolve("missing.wav"), .failure(.notFound))
        XCTAssertEqual(resolve("folder.wav"), .failure(.notARegularFile))
    }

    func testTheReaderKeepsTheHapticsAndReportsEscapingPathsWithTheirLocation() throws {
        let text = """
        { "Pattern": [
          { "Event": { "EventType": "AudioCustom", "EventWaveformPath": "escape.wav" } } ] }
        """
        let file = try folder.write(text, to: "pattern.ahap")
        let content = try AHAP.read(contentsOf: file)
        XCTAssertEqual(content.warnings.count, 1)
        XCTAssertTrue(content.warnings[0].description.hasPrefix("\(file.relativePath):2:65: warning: Pattern[0].Event.EventWaveformPath: waveform path \"escape.wav\" resolves through a symbolic link"), content.warnings[0].description)
        XCTAssertThrowsError(try content.requirePlayableWaveforms()) { error in
            guard case .waveformPath(let location, let keyPath, let path, .linkLeavesFolder)? = error as? AHAPError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(location.line, 2)
            XCTAssertEqual(location.column, 65)
            XCTAssertEqual(keyPath.description, "Pattern[0].Event.EventWaveformPath")
            XCTAssertEqual(path, "escape.wav")
        }
    }

    func testAMissingWaveformIsAWarningNamingThePathTried() throws {
        let text = """
        { "Pattern": [
          { "Event": { "Time": 0, "EventType": "HapticTransient" } },
          { "Event": { "EventType": "AudioCustom", "EventWaveformPath": "gone.wav" } } ] }
        """
        let file = try folder.write(text, to: "pattern.ahap")
        let content = try AHAP.read(contentsOf: file)
        XCTAssertEqual(content.pattern.events.count, 2)
        XCTAssertEqual(content.waveformProblems.count, 1)
        let tried = folder.url.appendingPathComponent("gone.wav").standardizedFileURL.path
        XCTAssertEqual(content.warnings.map(\.description), [
            "\(file.relativePath):3:65: warning: Pattern[1].Event.EventWaveformPath: waveform path \"gone.wav\" names no file in the AHAP file's folder (tried \(tried)); the event's sound cannot play (an error where sounds are played; --no-audio plays the haptics alone)",
        ])
        XCTAssertEqual(content.waveformProblems.first?.description,
                       "\(file.relativePath):3:65: Pattern[1].Event.EventWaveformPath: waveform path \"gone.wav\" names no file in the AHAP file's folder")
    }

    func testTextWithoutAFolderGetsTheChecksThatNeedNoFileSystem() {
        let relative = AHAPFixtures.singleEvent(#""EventType": "AudioCustom", "EventWaveformPath": "anywhere/clip.wav""#)
        XCTAssertEqual(AHAPFixtures.read(relative)?.pattern.events.first?.waveformPath, "anywhere/clip.wav")
        XCTAssertEqual(AHAPFixtures.read(relative)?.waveformProblems, [])
        let escaping = AHAPFixtures.singleEvent(#""EventType": "AudioCustom", "EventWaveformPath": "../clip.wav""#)
        XCTAssertEqual(AHAPFixtures.read(escaping)?.waveformProblems.first?.description,
                       #"test.ahap:3:67: Pattern[0].Event.EventWaveformPath: waveform path "../clip.wav" leaves the AHAP file's folder through '..'"#)
        let absolute = AHAPFixtures.singleEvent(#""EventType": "AudioCustom", "EventWaveformPath": "/etc/passwd""#)
        guard case .waveformPath(_, _, _, .absolute)? = AHAPFixtures.read(absolute)?.waveformProblems.first else {
            return XCTFail("expected an absolute-path problem")
        }
    }

    func testARelativeFileURLNamesTheFileAsGivenAndResolvesBesideIt() throws {
        let relative = URL(fileURLWithPath: "audio-custom.ahap", relativeTo: AHAPFixtures.examplesFolder)
        let content = try AHAP.read(contentsOf: relative)
        XCTAssertEqual(content.pattern.events.filter { $0.type == .audioCustom }.count, 2)
        let quirks = URL(fileURLWithPath: "real-world-quirks.ahap", relativeTo: AHAPFixtures.examplesFolder)
        XCTAssertEqual(try AHAP.read(contentsOf: quirks).warnings.first?.location, "real-world-quirks.ahap:5:20")
        let wave = try AHAP.resolveWaveform("click.wav", relativeTo: relative)
        XCTAssertEqual(wave.path, AHAPFixtures.example("click.wav").resolvingSymlinksInPath().path)
    }

    func testTheAudioCustomExampleFindsItsWaveform() throws {
        let example = AHAPFixtures.example("audio-custom.ahap")
        _ = try AHAP.read(contentsOf: example)
        let wave = try AHAP.resolveWaveform("click.wav", relativeTo: example)
        let data = try Data(contentsOf: wave)
        XCTAssertEqual(String(decoding: data.prefix(4), as: UTF8.self), "RIFF")
        XCTAssertEqual(String(decoding: data[8..<12], as: UTF8.self), "WAVE")
    }
}
