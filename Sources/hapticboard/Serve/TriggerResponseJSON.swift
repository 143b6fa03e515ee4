import HapticRuntime

/// The answer to a trigger (a play without `wait`), written directly instead of through
/// `JSONEncoder`: encoding it took about a fifth of a trigger's instructions in the service
/// (callgrind over `hapticboard bench --service`: 68,000 of some 336,000 per request), and
/// triggers are what a kiosk or a game sends by the thousand. The bytes are those `ServeAPI.json`
/// writes for the same `PlayResponse` (keys sorted, slashes unescaped); `ServeTests` compares them.
enum TriggerResponseJSON {
    static func text(of response: PlayResponse) -> String? {
        guard response.ended == nil, response.report == nil else { return nil }
        var text = "{"
        if let player = response.player {
            text += #""player":{"actuators":["#
            text += player.actuators.map(quoted).joined(separator: ",")
            text += #"],"client":\#(player.client),"duration":\#(number(player.duration)),"id":\#(player.id),"#
            text += #""name":\#(quoted(player.name)),"outlivesClient":\#(player.outlivesClient),"priority":\#(player.priority)},"#
        }
        text += #""warnings":["# + response.warnings.map(quoted).joined(separator: ",") + "]}"
        return text
    }

    /// A double as JSONEncoder writes it: Swift's shortest round-trip form, without a trailing `.0`.
    private static func number(_ value: Double) -> String {
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// A JSON string as JSONEncoder writes it: quote, backslash and control characters escaped.
    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case "\u{00}"..."\u{1F}":
                let digits = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
