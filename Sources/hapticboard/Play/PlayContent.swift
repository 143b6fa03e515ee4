import ActuatorHAL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HapticRuntime

/// What `play` was asked to play, read into patterns.
struct PlayContent {
    /// A pattern and what to call it in output.
    struct Item {
        var name: String
        var content: LoadedContent
        /// The file the content came from; for notation text or an effect, a name in the current
        /// directory. Waveform paths resolve in its folder.
        var file: URL

        /// Where its sounds resolve: its file's folder.
        var soundFolder: URL { file.absoluteURL.deletingLastPathComponent() }

        /// The item as a playback session plays it.
        var playbackItem: PlaybackSession.Item {
            PlaybackSession.Item(name: name, content: content, soundFolder: soundFolder)
        }
    }

    var items: [Item]

    /// Exactly one of: files (read by `reader`), notation text, a ROM effect id.
    init(files: [String], notation: String?, effect: Int?, reader: CommandContent = CommandContent()) throws {
        let given = (files.isEmpty ? 0 : 1) + (notation == nil ? 0 : 1) + (effect == nil ? 0 : 1)
        guard given == 1 else { throw CommandLineError.contentSources(given: given) }
        if let notation {
            items = [Item(name: "--notation", content: try Self.load { () throws(ContentLoadingError) in
                try ContentLoader.parse(Self.notationLines(notation), format: .notation, file: "--notation")
            }, file: URL(fileURLWithPath: "--notation"))]
        } else if let effect {
            items = [Item(name: "effect \(effect)", content: LoadedContent(format: .notes, pattern: try Self.pattern(playingEffect: effect)), file: URL(fileURLWithPath: "effect"))]
        } else {
            var reader = reader
            items = try files.map { file in
                let (content, url) = try reader.load(file)
                return Item(name: file, content: content, file: url)
            }
        }
    }

    /// `--notation` text with each `;` (and one space after it) starting a new line, so one shell
    /// argument can hold several statements (`'loud sharp; . 0.2s; soft dull'`); further spaces
    /// are indentation, as at the start of a line. Error positions count those lines.
    static func notationLines(_ text: String) -> String {
        text.replacingOccurrences(of: "; ", with: "\n").replacingOccurrences(of: ";", with: "\n")
    }

    /// A pattern playing ROM effect `id`.
    static func pattern(playingEffect id: Int) throws(CommandLineError) -> HapticPattern {
        guard let pattern = HapticPattern(playingROMEffect: id) else { throw .invalidEffect(id) }
        return pattern
    }

    private static func load(_ body: () throws(ContentLoadingError) -> LoadedContent) throws(CommandLineError) -> LoadedContent {
        do {
            return try body()
        } catch {
            throw .content(error.description)
        }
    }

    /// The same content without audio events (`--no-audio`).
    func hapticsOnly() -> PlayContent {
        var copy = self
        for index in copy.items.indices {
            copy.items[index].content.pattern.events.removeAll { !$0.type.isHaptic }
        }
        return copy
    }

    /// Throws the first AudioCustom waveform that cannot be played, with its file:line:column, and
    /// a hint for playing the haptics alone.
    func requirePlayableWaveforms() throws {
        for item in items {
            do {
                try item.content.requirePlayableWaveforms()
            } catch {
                throw CommandLineError.content("\(error) (--no-audio plays the haptics without the sound)")
            }
        }
    }

    /// Audio events in one pass over every item.
    var audioEventCount: Int { items.reduce(0) { $0 + $1.content.audioEventCount } }

    /// Events in one pass over every item.
    var eventCount: Int { items.reduce(0) { $0 + $1.content.pattern.events.count } }
}
