/// Where a value sits in a document (an AHAP file, a board file), written the way a reader would
/// look it up: `Pattern[3].Event.EventParameters[0].ParameterValue`, `actuators[1].vib-rated-mv`.
public struct DocumentKeyPath: Sendable, Hashable, CustomStringConvertible {
    /// One step down into the document.
    public enum Component: Sendable, Hashable {
        /// An object member.
        case key(String)
        /// An array element (0-based).
        case index(Int)
    }

    /// The steps from the top-level object.
    public var components: [Component]

    /// A path from the top-level object; empty means the top-level value itself.
    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// This path followed by an object member.
    public func appending(_ key: String) -> DocumentKeyPath { DocumentKeyPath(components + [.key(key)]) }

    /// This path followed by an array element.
    public func appending(_ index: Int) -> DocumentKeyPath { DocumentKeyPath(components + [.index(index)]) }

    /// `Pattern[3].Event.Time`, or `(top level)` for the empty path.
    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key): text += text.isEmpty ? key : "." + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text.isEmpty ? "(top level)" : text
    }
}

/// A path in an AHAP document.
public typealias AHAPKeyPath = DocumentKeyPath
