import ActuatorHAL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HapticRuntime
import HardwareMocks

/// What `play` was asked to play, read into patterns.
struct PlayContent {
    /// A pattern and what to call it in output.
    struct Item {
        var name: String
        var content: LoadedContent
        /// The file the content came from; for notation text or an effect, a name in the current
        /// directory. Waveform paths resolve in its folder.
        var file: URL
    }

    /// The DRV2605 ROM's effect ids.
    static let effectIDs = 1...123

    var items: [Item]

    /// Exactly one of: files, notation text, a ROM effect id.
    init(files: [String], notation: String?, effect: Int?) throws {
        let given = (files.isEmpty ? 0 : 1) + (notation == nil ? 0 : 1) + (effect == nil ? 0 : 1)
        guard given == 1 else { throw CommandLineError.contentSources(given: given) }
        if let notation {
            items = [Item(name: "--notation", content: try Self.load { () throws(ContentLoadingError) in
                try ContentLoader.parse(Self.notationLines(notation), format: .notation, file: "--notation")
            }, file: URL(fileURLWithPath: "--notation"))]
        } else if let effect {
            items = [Item(name: "effect \(effect)", content: LoadedContent(format: .notes, pattern: try Self.pattern(playingEffect: effect)), file: URL(fileURLWithPath: "effect"))]
        } else {
            items = try files.map { file in
                let url = URL(fileURLWithPath: file)
                return Item(name: file, content: try Self.load { () throws(ContentLoadingError) in
                    try ContentLoader.load(contentsOf: url)
                }, file: url)
            }
        }
    }

    /// `--notation` text with each `;` (and one space after it) starting a new line, so one shell
    /// argument can hold several statements (`'loud sharp; . 0.2s; soft dull'`); further spaces
    /// are indentation, as at the start of a line. Error positions count those lines.
    static func notationLines(_ text: String) -> String {
        text.replacingOccurrences(of: "; ", with: "\n").replacingOccurrences(of: ";", with: "\n")
    }

    /// A pattern of one transient whose ROM cue is effect `id`: chips with a library play the
    /// effect itself; others play the transient. The cue lasts as long as the simulated chip's
    /// estimate for the effect (TI publishes no durations), so the player's final stop does not
    /// cut a long buzz short.
    static func pattern(playingEffect id: Int) throws(CommandLineError) -> HapticPattern {
        guard effectIDs.contains(id), let byte = UInt8(exactly: id) else { throw .invalidEffect(id) }
        var event = HapticEvent(type: .hapticTransient, time: 0)
        let duration = max(CompilerOptions().romEffectDuration, DRV2605Model.estimatedDuration(ofEffect: byte).secondsValue)
        event.romCue = ROMCue(group: 0, lraSteps: [.effect(byte)], ermSteps: [.effect(byte)], duration: duration)
        return HapticPattern(events: [event])
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

    /// Events in one pass over every item.
    var eventCount: Int { items.reduce(0) { $0 + $1.content.pattern.events.count } }
}
