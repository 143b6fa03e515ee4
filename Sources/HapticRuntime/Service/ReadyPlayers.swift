/// Players of requests that ended cleanly, kept by what was asked for, so that the next request
/// for the same content on the same actuators starts one of them instead of making its own.
///
/// A button, a kiosk's tap or a game plays the same few things again and again, and making a
/// player — resolving the content, compiling it, planning its segment, reserving its queue — cost
/// more than twice what starting one does (docs/performance.md). A kept player is started again only
/// while its programs are current (`compiledProgramsAreCurrent`), and the service drops them all
/// when its library or theme is replaced and when the engine stops.
///
/// Bounded: `perContent` players for each content, `contents` contents, and only players whose
/// programs are short, so what is kept stays small however much content passes through.
struct ReadyPlayers {
    /// What a request asked for, as far as it decides the players it gets.
    struct Key: Hashable {
        var content: ServiceContent
        /// The actuators, checked and sorted; nil for every actuator.
        var actuators: [String]?
        /// The profile a named event plays at; nil for other content.
        var profile: FeedbackProfile?
    }

    /// Players made for a request, with what the service says about them.
    struct Prepared {
        /// What players and events call the content.
        var name: String
        var players: [HapticAdvancedPatternPlayer]
        /// Seconds the longest of them plays.
        var duration: Double
        /// What the content's reader and the compiler had to say.
        var warnings: [String]
    }

    static let perContent = 4
    static let contents = 32
    /// Inline text longer than this is read again each time rather than kept as a key.
    static let longestKeptText = 16 * 1024
    /// Players with more commands than this are not kept (the same bound as the engine's
    /// cache of compiled programs).
    static let mostKeptCommands = ActuatorChannel.cachedProgramCommands

    private var kept: [Key: [Prepared]] = [:]

    /// Players kept now.
    var count: Int { kept.values.reduce(0) { $0 + $1.reduce(0) { $0 + $1.players.count } } }

    /// The key of `content` on `actuators`; nil when such content is not kept.
    static func key(for content: ServiceContent, on actuators: [String]?, profile: FeedbackProfile?) -> Key? {
        switch content {
        case .ahap(let text), .notation(let text), .notes(let text):
            guard text.utf8.count <= longestKeptText else { return nil }
        case .library, .effect, .feedback, .event, .pattern:
            break
        }
        return Key(content: content, actuators: actuators, profile: profile)
    }

    /// Takes kept players for `key` whose programs are still current; drops those that are not.
    /// The key is hashed once (it hashes the content's text or names; each `kept[key]` hashed it again).
    mutating func take(_ key: Key) -> Prepared? {
        guard let index = kept.index(forKey: key) else { return nil }
        defer { if kept.values[index].isEmpty { kept.remove(at: index) } }
        while let prepared = kept.values[index].popLast() {
            if prepared.players.allSatisfy(\.compiledProgramsAreCurrent) { return prepared }
        }
        return nil
    }

    /// Keeps `prepared` for `key` when its players have ended, are short and there is room.
    mutating func keep(_ prepared: Prepared, for key: Key) {
        guard prepared.players.allSatisfy({ !$0.isPlaying && $0.compiledCommandCount <= Self.mostKeptCommands }) else { return }
        if kept[key] == nil, kept.count >= Self.contents { kept.removeAll(keepingCapacity: true) }
        guard kept[key, default: []].count < Self.perContent else { return }
        kept[key, default: []].append(prepared)
    }

    mutating func removeAll() {
        kept.removeAll()
    }
}
