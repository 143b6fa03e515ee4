import Foundation
import HapticRuntime

/// How the commands read content: a path (any format `ContentLoader` knows, by extension or
/// content) or `-` for standard input (recognised by content); sounds through `SoundHaptics` with
/// the analysis settings given, through the derived-haptics cache when there is one. Errors
/// become the command's one-line message.
struct CommandContent {
    /// The name standard input goes by.
    static let standardInputName = "-"

    var soundSettings = SoundAnalysisSettings()
    var cache: DerivedHapticsCache?

    /// The content at `path`, and the file it came from (waveform paths resolve beside it).
    mutating func load(_ path: String, warn: (String) -> Void = printError) throws -> (content: LoadedContent, file: URL) {
        if path == Self.standardInputName {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            do {
                let content = try ContentLoader.load(data: data, file: "<stdin>", sounds: .linux(settings: soundSettings))
                return (content, URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("stdin"))
            } catch {
                throw CommandLineError.content(error.description)
            }
        }
        let url = URL(fileURLWithPath: path)
        let format: ContentFormat
        do {
            format = try ContentLoader.format(of: url)
        } catch {
            throw CommandLineError.content(error.description)
        }
        if format == .sound, var cache {
            defer { self.cache = cache }
            return (try cache.content(ofSound: url, settings: soundSettings, warn: warn), url)
        }
        do {
            return (try ContentLoader.load(contentsOf: url, sounds: .linux(settings: soundSettings)), url)
        } catch {
            throw CommandLineError.content(error.description)
        }
    }
}
