/// A JSON object in an AHAP document, looked up by key, with its place in the document.
struct AHAPObject {
    /// Where the object's `{` is.
    let position: LocatedJSON.Position
    let path: AHAPKeyPath
    /// Members in source order; a repeated key appears once, at its first place, with its last
    /// value (the last one wins, as in most JSON readers).
    let members: [LocatedJSON.Member]

    init(position: LocatedJSON.Position, path: AHAPKeyPath, members: [LocatedJSON.Member]) {
        self.position = position
        self.path = path
        var lastIndex: [String: Int] = [:]
        var unique: [LocatedJSON.Member] = []
        for member in members {
            if let index = lastIndex[member.key] {
                unique[index] = member
            } else {
                lastIndex[member.key] = unique.count
                unique.append(member)
            }
        }
        self.members = unique
    }

    /// The value of `key`, if present.
    subscript(key: String) -> LocatedJSON? {
        members.first(where: { $0.key == key })?.value
    }
}
