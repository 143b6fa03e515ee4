/// Text that is not JSON (even with the trailing commas `LocatedJSONReader` tolerates), with the
/// position of the first character that cannot be read.
struct LocatedJSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    var position: LocatedJSON.Position
    var message: String

    var description: String { "\(position): \(message)" }
}
