/// Typed access to values, so every wrong type, negative time and out-of-range value is reported
/// the same way: the value's `line:column` and key path.
extension AHAPDocumentReader {
    func location(_ position: LocatedJSON.Position) -> AHAPSourceLocation {
        AHAPSourceLocation(file: file, line: position.line, column: position.column)
    }

    mutating func warn(_ position: LocatedJSON.Position, _ path: AHAPKeyPath, _ message: String) {
        warnings.append(ContentWarning(location: location(position).description, message: "\(path): \(message)"))
    }

    func typeMismatch(_ value: LocatedJSON, at path: AHAPKeyPath, expected: String) -> AHAPError {
        .wrongType(location(value.position), keyPath: path, expected: expected, found: value.typeName)
    }

    /// The object `value` is; repeated keys are warned about and the last one kept.
    mutating func objectValue(_ value: LocatedJSON, at path: AHAPKeyPath) throws(AHAPError) -> AHAPObject {
        guard case .object(let members) = value.kind else {
            throw typeMismatch(value, at: path, expected: "an object")
        }
        var seen = Set<String>()
        for member in members where !seen.insert(member.key).inserted {
            warn(member.keyPosition, path.appending(member.key), "appears more than once; the last value is used")
        }
        return AHAPObject(position: value.position, path: path, members: members)
    }

    func arrayValue(_ value: LocatedJSON, at path: AHAPKeyPath) throws(AHAPError) -> [LocatedJSON] {
        guard case .array(let elements) = value.kind else {
            throw typeMismatch(value, at: path, expected: "an array")
        }
        return elements
    }

    func numberValue(_ value: LocatedJSON, at path: AHAPKeyPath) throws(AHAPError) -> Double {
        guard case .number(let number) = value.kind else {
            throw typeMismatch(value, at: path, expected: "a number")
        }
        return number.value
    }

    func stringValue(_ value: LocatedJSON, at path: AHAPKeyPath) throws(AHAPError) -> String {
        guard case .string(let text) = value.kind else {
            throw typeMismatch(value, at: path, expected: "a string")
        }
        return text
    }

    /// `true`/`false`, and also 0 and 1: Core Haptics reads AHAP through Foundation, where JSON
    /// booleans and numbers are the same `NSNumber`, so files in the wild use either.
    func boolValue(_ value: LocatedJSON, at path: AHAPKeyPath) throws(AHAPError) -> Bool {
        switch value.kind {
        case .bool(let flag): return flag
        case .number(let number) where number.value == 0 || number.value == 1: return number.value == 1
        default: throw typeMismatch(value, at: path, expected: "a boolean")
        }
    }

    /// A `Time` or `EventDuration`: a number that must not be negative; nil when absent.
    func seconds(_ key: String, in object: AHAPObject) throws(AHAPError) -> Double? {
        guard let value = object[key] else { return nil }
        let path = object.path.appending(key)
        let seconds = try numberValue(value, at: path)
        guard seconds >= 0 else {
            throw .negativeValue(location(value.position), keyPath: path, value: seconds)
        }
        return seconds
    }

    /// A `ParameterValue`: missing → the parameter's default (warned), outside `range` → clamped
    /// to the nearest limit (warned), as Core Haptics does.
    mutating func parameterValue(
        in object: AHAPObject, defaultValue: Double, range: ClosedRange<Double>
    ) throws(AHAPError) -> Double {
        let path = object.path.appending("ParameterValue")
        guard let value = object["ParameterValue"] else {
            warn(object.position, path, "missing; using the default \(AHAPNumberFormat.text(defaultValue))")
            return defaultValue
        }
        let given = try numberValue(value, at: path)
        let clamped = min(max(given, range.lowerBound), range.upperBound)
        if clamped != given {
            let limits = "\(AHAPNumberFormat.text(range.lowerBound))…\(AHAPNumberFormat.text(range.upperBound))"
            warn(value.position, path,
                 "\(AHAPNumberFormat.text(given)) is outside \(limits); clamped to \(AHAPNumberFormat.text(clamped))")
        }
        return clamped
    }

    /// A `ParameterID` naming one of `ID`'s cases; anything else is an error listing the allowed names.
    func parameterID<ID: CaseIterable & RawRepresentable>(
        _ type: ID.Type, in object: AHAPObject
    ) throws(AHAPError) -> ID where ID.RawValue == String {
        let path = object.path.appending("ParameterID")
        guard let value = object["ParameterID"] else {
            throw .missingKey(location(object.position), keyPath: path)
        }
        let name = try stringValue(value, at: path)
        if let id = ID(rawValue: name) { return id }
        let allowed = ID.allCases.map(\.rawValue)
        // Event parameters and dynamic parameters are easily confused: `HapticIntensity` belongs
        // in EventParameters, `HapticIntensityControl` in Parameter and ParameterCurve elements.
        let counterpart = allowed.first { $0 == name + "Control" || $0 + "Control" == name }
        throw .unknownParameterID(
            location(value.position), keyPath: path, name: name, allowed: allowed,
            suggestion: NameSuggestion.nearest(to: name, in: allowed) ?? counterpart)
    }

    /// Apple's rule is to ignore unknown keys; a warning still points out typos such as `Tme`.
    mutating func warnAboutUnknownKeys(in object: AHAPObject, known: Set<String>) {
        for member in object.members where !known.contains(member.key) {
            warn(member.keyPosition, object.path.appending(member.key), "unknown key; ignored")
        }
    }
}
