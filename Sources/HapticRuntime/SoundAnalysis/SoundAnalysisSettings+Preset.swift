import FoundationEssentials

extension SoundAnalysisSettings {
    /// The settings of a preset file over these: a JSON object whose keys are setting names
    /// (`"release-ms": 80`, `"normalize": true`); keys not given keep their value. Unknown keys and
    /// wrong values are errors with `file:line:column`, so a typo cannot pass for a default.
    public func applying(preset text: String, file: String) throws(SoundAnalysisSettingsError) -> SoundAnalysisSettings {
        let root: LocatedJSON
        do {
            root = try LocatedJSONReader.read(text)
        } catch {
            throw .preset(AHAPSourceLocation(file: file, line: error.position.line, column: error.position.column), keyPath: nil, message: error.message)
        }
        func located(_ position: LocatedJSON.Position) -> AHAPSourceLocation {
            AHAPSourceLocation(file: file, line: position.line, column: position.column)
        }
        guard case .object(let members) = root.kind else {
            throw .preset(located(root.position), keyPath: nil, message: "expected an object of settings, found \(root.typeName)")
        }
        if let repeated = root.repeatedKeys().first {
            throw .preset(located(repeated.again.map(LocatedJSON.Position.init) ?? root.position), keyPath: repeated.keyPath, message: repeated.refusal)
        }
        var settings = self
        for member in members {
            let path = AHAPKeyPath().appending(member.key)
            let value: Double
            switch member.value.kind {
            case .number(let number): value = number.value
            case .bool(let flag): value = flag ? 1 : 0
            default:
                throw .preset(located(member.value.position), keyPath: path, message: "expected a number or a boolean, found \(member.value.typeName)")
            }
            do {
                try settings.set(member.key, to: value)
            } catch {
                throw .preset(located(member.keyPosition), keyPath: nil, message: error.description)
            }
        }
        do {
            try settings.validate()
        } catch {
            throw .preset(located(root.position), keyPath: nil, message: error.description)
        }
        return settings
    }

    /// The settings of the preset file at `url` over these.
    public func applying(presetAt url: URL) throws(SoundAnalysisSettingsError) -> SoundAnalysisSettings {
        let text: String
        do {
            text = try ContentFileReading.text(of: url)
        } catch {
            throw .unreadablePreset(file: url.relativePath, reason: error.reason)
        }
        return try applying(preset: text, file: url.relativePath)
    }

    /// These settings as a preset file (every key), for `convert --print-preset`-style use and tests.
    public var presetText: String {
        JSONOutput.object(Self.all.map { setting in
            let value = setting.get(self)
            let output: JSONOutput = setting.kind == .flag ? .bool(value != 0) : .number(setting.kind == .whole ? String(Int(value)) : AHAPNumberFormat.text(value))
            return (key: setting.key, value: output)
        }).rendered() + "\n"
    }
}
