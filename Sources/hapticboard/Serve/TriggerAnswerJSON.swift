import HapticRuntime

/// The answers to a trigger — a play without `wait` over HTTP, a WebSocket `play` — written
/// directly instead of through `JSONEncoder`: encoding them took about a fifth of a trigger's
/// instructions in the service (callgrind over `hapticboard bench --service`: 68,000 of some
/// 336,000 per HTTP request, 73,000 per WebSocket play), and triggers are what a kiosk or a game
/// sends by the thousand. The bytes are those `JSONEncoder` writes for the same values with
/// `ServeAPI`'s settings (keys sorted, slashes unescaped); `ServeTests` compares them.
enum TriggerAnswerJSON {
    /// `PlayResponse`'s JSON; nil for one with `ended` or a report (those go through `JSONEncoder`).
    static func text(of response: PlayResponse) -> String? {
        guard response.ended == nil, response.report == nil, response.player?.duration.isFinite ?? true else { return nil }
        return "{" + members(player: response.player, warnings: response.warnings) + "}"
    }

    /// The WebSocket answer to a `play`: `WebSocketSession.Reply(op: "started", …)`'s JSON; nil
    /// where `JSONEncoder` would refuse a value (an id of 1e400 reads as infinity).
    static func started(id: JSONValue?, player: ServicePlayerInfo?, warnings: [String]) -> String? {
        guard player?.duration.isFinite ?? true else { return nil }
        var text = "{"
        switch id {
        case .number(let number):
            guard number.isFinite else { return nil }
            text += #""id":\#(self.number(number)),"#
        case .string(let string): text += #""id":\#(JSONString.quoted(string)),"#
        case nil: break
        }
        return text + #""op":"started","# + members(player: player, warnings: warnings) + "}"
    }

    /// `"player":{…},"warnings":[…]` in key order; no player member without a player. Appended
    /// to one string with room for a usual answer: joining pieces with `+` made a new string for
    /// each, 19,000 instructions an answer (callgrind over `bench --service`).
    private static func members(player: ServicePlayerInfo?, warnings: [String]) -> String {
        var text = ""
        text.reserveCapacity(192)
        if let player {
            text.append(#""player":{"actuators":"#)
            appendArray(player.actuators, to: &text)
            text.append(#","client":"#)
            text.append(String(player.client))
            text.append(#","duration":"#)
            text.append(number(player.duration))
            text.append(#","id":"#)
            text.append(String(player.id))
            text.append(#","name":"#)
            JSONString.append(player.name, to: &text)
            text.append(player.outlivesClient ? #","outlivesClient":true"# : #","outlivesClient":false"#)
            text.append(#","priority":"#)
            text.append(String(player.priority))
            text.append("},")
        }
        text.append(#""warnings":"#)
        appendArray(warnings, to: &text)
        return text
    }

    private static func appendArray(_ strings: [String], to text: inout String) {
        text.append("[")
        for (index, string) in strings.enumerated() {
            if index > 0 { text.append(",") }
            JSONString.append(string, to: &text)
        }
        text.append("]")
    }

    /// A double as JSONEncoder writes it: Swift's shortest round-trip form, without a trailing `.0`.
    private static func number(_ value: Double) -> String {
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
