#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns a parsed AHAP document into a `HapticPattern` under Apple's rules — missing keys take
/// their defaults, out-of-range values are clamped, unknown keys are ignored — plus what real
/// files need: integer or missing `Version`, a bare `Event` without `Pattern`, unsorted times,
/// HapticContinuous events over 30 s. Every leniency is reported as a located warning.
struct AHAPDocumentReader {
    /// The three kinds of `Pattern` element; raw values are the AHAP keys.
    enum ElementKind: String, CaseIterable {
        case event = "Event"
        case parameter = "Parameter"
        case parameterCurve = "ParameterCurve"
    }

    /// An item with where it came from, for warnings raised after reading it (e.g. sorting).
    struct Placed<Item> {
        var item: Item
        var position: LocatedJSON.Position
        var path: AHAPKeyPath
    }

    private static let topLevelKeys: Set<String> = Set(["Version", "Metadata", "Pattern"] + ElementKind.allCases.map(\.rawValue))
    /// Event keys that only AudioCustom events use.
    private static let waveformKeys = ["EventWaveformPath", "EventWaveformUseVolumeEnvelope", "EventWaveformLoopEnabled"]
    private static let eventKeys = Set(["Time", "EventType", "EventDuration", "EventParameters"] + waveformKeys)

    /// The file name used in locations.
    let file: String
    /// The AHAP file's folder, for resolving waveform paths; nil when reading text with no file
    /// behind it (waveform paths then get only the checks that need no file system).
    let folder: URL?
    var warnings: [ContentWarning] = []
    /// AudioCustom waveform paths that name no playable file, as the errors they are where the
    /// sound would be played (see `LoadedContent.waveformProblems`).
    var waveformProblems: [AHAPError] = []

    private var events: [Placed<HapticEvent>] = []
    private var parameters: [Placed<DynamicParameter>] = []
    private var curves: [Placed<ParameterCurve>] = []

    init(file: String, folder: URL?) {
        self.file = file
        self.folder = folder
    }

    mutating func read(_ root: LocatedJSON) throws(AHAPError) -> HapticPattern {
        let top = try objectValue(root, at: AHAPKeyPath())
        let version = try readVersion(in: top)
        let metadata = try readMetadata(in: top)
        if let list = top["Pattern"] {
            let path = AHAPKeyPath().appending("Pattern")
            for (index, element) in try arrayValue(list, at: path).enumerated() {
                try readElement(element, at: path.appending(index))
            }
        }
        for kind in ElementKind.allCases {
            guard let body = top[kind.rawValue] else { continue }
            let path = AHAPKeyPath().appending(kind.rawValue)
            warn(body.position, path, "a bare \(kind.rawValue) outside a Pattern array; read as a pattern element")
            try readBody(of: kind, body, at: path)
        }
        if top["Pattern"] == nil && ElementKind.allCases.allSatisfy({ top[$0.rawValue] == nil }) {
            warn(root.position, AHAPKeyPath(), "no Pattern; the pattern is empty")
        }
        warnAboutUnknownKeys(in: top, known: Self.topLevelKeys)

        // Order is checked on the events as written; the pieces of split events then fall into place.
        let orderedEvents = sortedByTime(events, what: "events", time: \.time)
        return HapticPattern(
            version: version,
            metadata: metadata,
            events: orderedEvents.flatMap { $0.splitAtContinuousLimit() }.sortedByTimeKeepingOrder(\.time),
            parameters: sortedByTime(parameters, what: "dynamic parameters", time: \.time, apart: \.id),
            parameterCurves: sortedByTime(curves, what: "parameter curves", time: \.time, apart: \.id))
    }

    // MARK: Top level

    private mutating func readVersion(in top: AHAPObject) throws(AHAPError) -> Double? {
        guard let value = top["Version"] else { return nil }
        let path = top.path.appending("Version")
        if case .string(let text) = value.kind, let number = Double(text), number.isFinite {
            warn(value.position, path, "the string \"\(text)\"; read as the number \(AHAPNumberFormat.text(number))")
            return number
        }
        return try numberValue(value, at: path)
    }

    /// Metadata values are free; ones that are not strings are kept as their JSON text.
    private mutating func readMetadata(in top: AHAPObject) throws(AHAPError) -> [String: String] {
        guard let value = top["Metadata"] else { return [:] }
        let metadata = try objectValue(value, at: top.path.appending("Metadata"))
        var result: [String: String] = [:]
        for member in metadata.members {
            if case .string(let text) = member.value.kind {
                result[member.key] = text
            } else {
                let text = JSONOutput(member.value).compact
                warn(member.value.position, metadata.path.appending(member.key),
                     "\(member.value.typeName), not a string; kept as the text \(text)")
                result[member.key] = text
            }
        }
        return result
    }

    // MARK: Pattern elements

    private mutating func readElement(_ value: LocatedJSON, at path: AHAPKeyPath) throws(AHAPError) {
        let element = try objectValue(value, at: path)
        let kinds = ElementKind.allCases.filter { element[$0.rawValue] != nil }
        guard kinds.count == 1, let kind = kinds.first, let body = element[kind.rawValue] else {
            throw .invalidPatternElement(location(value.position), keyPath: path, kindsFound: kinds.map(\.rawValue))
        }
        warnAboutUnknownKeys(in: element, known: Set(ElementKind.allCases.map(\.rawValue)))
        try readBody(of: kind, body, at: path.appending(kind.rawValue))
    }

    private mutating func readBody(of kind: ElementKind, _ value: LocatedJSON, at path: AHAPKeyPath) throws(AHAPError) {
        switch kind {
        case .event:
            events.append(Placed(item: try readEvent(value, at: path), position: value.position, path: path))
        case .parameter:
            parameters.append(Placed(item: try readParameter(value, at: path), position: value.position, path: path))
        case .parameterCurve:
            curves.append(Placed(item: try readCurve(value, at: path), position: value.position, path: path))
        }
    }

    // MARK: Events

    private mutating func readEvent(_ value: LocatedJSON, at path: AHAPKeyPath) throws(AHAPError) -> HapticEvent {
        let object = try objectValue(value, at: path)
        var event = HapticEvent(type: try readEventType(in: object), time: try seconds("Time", in: object) ?? 0)
        event.duration = try seconds("EventDuration", in: object)
        if let list = object["EventParameters"] {
            let listPath = path.appending("EventParameters")
            for (index, entry) in try arrayValue(list, at: listPath).enumerated() {
                let entryObject = try objectValue(entry, at: listPath.appending(index))
                let id = try parameterID(EventParameterID.self, in: entryObject)
                let amount = try parameterValue(in: entryObject, defaultValue: id.defaultValue, range: id.range)
                warnAboutUnknownKeys(in: entryObject, known: ["ParameterID", "ParameterValue"])
                event.parameters.append(EventParameter(id, amount))
            }
        }
        try readWaveform(into: &event, from: object)
        try checkContinuousLimit(of: event, in: object)
        warnAboutUnknownKeys(in: object, known: Self.eventKeys)
        return event
    }

    private func readEventType(in object: AHAPObject) throws(AHAPError) -> HapticEventType {
        let path = object.path.appending("EventType")
        guard let value = object["EventType"] else {
            throw .missingKey(location(object.position), keyPath: path)
        }
        let name = try stringValue(value, at: path)
        if let type = HapticEventType(rawValue: name) { return type }
        throw .unknownEventType(
            location(value.position), keyPath: path, name: name,
            suggestion: NameSuggestion.nearest(to: name, in: HapticEventType.allCases.map(\.rawValue)))
    }

    private mutating func readWaveform(into event: inout HapticEvent, from object: AHAPObject) throws(AHAPError) {
        guard event.type == .audioCustom else {
            for member in object.members where Self.waveformKeys.contains(member.key) {
                warn(member.keyPosition, object.path.appending(member.key), "applies only to AudioCustom events; ignored")
            }
            return
        }
        let path = object.path.appending("EventWaveformPath")
        guard let value = object["EventWaveformPath"] else {
            throw .missingKey(location(object.position), keyPath: path)
        }
        let waveformPath = try stringValue(value, at: path)
        let problem: AHAPWaveformPathProblem? = if let folder {
            switch AHAPWaveformResolver.resolve(waveformPath, inFolder: folder) {
            case .success: nil
            case .failure(let problem): problem
            }
        } else {
            AHAPWaveformResolver.lexicalProblem(in: waveformPath)
        }
        if let problem {
            // Not an error here: the haptics play without the sound (Core Haptics' playsHapticsOnly),
            // and whoever plays the sound refuses it then, with this location.
            let error = AHAPError.waveformPath(location(value.position), keyPath: path, path: waveformPath, problem: problem)
            waveformProblems.append(error)
            let tried = folder.map { " (tried \($0.appendingPathComponent(waveformPath).standardizedFileURL.path))" } ?? ""
            warn(value.position, path, "waveform path \"\(waveformPath)\" \(problem)\(tried); the event's sound cannot play (an error where sounds are played; --no-audio plays the haptics alone)")
        }
        event.waveformPath = waveformPath
        if let flag = object["EventWaveformUseVolumeEnvelope"] {
            event.waveformUsesVolumeEnvelope = try boolValue(flag, at: object.path.appending("EventWaveformUseVolumeEnvelope"))
        }
        if let flag = object["EventWaveformLoopEnabled"] {
            event.waveformLoopEnabled = try boolValue(flag, at: object.path.appending("EventWaveformLoopEnabled"))
        }
    }

    /// HapticContinuous events over 30 s are split (see `HapticEvent.splitAtContinuousLimit()`),
    /// up to `HapticEvent.longestSplittableDuration`.
    private mutating func checkContinuousLimit(of event: HapticEvent, in object: AHAPObject) throws(AHAPError) {
        guard event.type == .hapticContinuous, let duration = event.duration,
              duration > HapticEvent.continuousDurationLimit, let value = object["EventDuration"] else { return }
        let path = object.path.appending("EventDuration")
        guard duration <= HapticEvent.longestSplittableDuration else {
            throw .excessiveDuration(
                location(value.position), keyPath: path, value: duration, limit: HapticEvent.longestSplittableDuration)
        }
        let pieces = event.splitAtContinuousLimit().count
        warn(value.position, path,
             "\(AHAPNumberFormat.text(duration)) s is longer than the 30 s Core Haptics plays a continuous event; split into \(pieces) consecutive events")
    }

    // MARK: Dynamic parameters and curves

    private mutating func readParameter(_ value: LocatedJSON, at path: AHAPKeyPath) throws(AHAPError) -> DynamicParameter {
        let object = try objectValue(value, at: path)
        let id = try parameterID(DynamicParameterID.self, in: object)
        let amount = try parameterValue(in: object, defaultValue: id.defaultValue, range: id.range)
        let time = try seconds("Time", in: object) ?? 0
        warnAboutUnknownKeys(in: object, known: ["ParameterID", "ParameterValue", "Time"])
        return DynamicParameter(id, value: amount, time: time)
    }

    private mutating func readCurve(_ value: LocatedJSON, at path: AHAPKeyPath) throws(AHAPError) -> ParameterCurve {
        let object = try objectValue(value, at: path)
        let id = try parameterID(DynamicParameterID.self, in: object)
        let time = try seconds("Time", in: object) ?? 0
        var points: [Placed<ControlPoint>] = []
        let listPath = path.appending("ParameterCurveControlPoints")
        if let list = object["ParameterCurveControlPoints"] {
            for (index, entry) in try arrayValue(list, at: listPath).enumerated() {
                let pointPath = listPath.appending(index)
                let point = try objectValue(entry, at: pointPath)
                let pointTime = try seconds("Time", in: point) ?? 0
                let pointValue = try parameterValue(in: point, defaultValue: id.defaultValue, range: id.range)
                warnAboutUnknownKeys(in: point, known: ["Time", "ParameterValue"])
                points.append(Placed(item: ControlPoint(time: pointTime, value: pointValue), position: entry.position, path: pointPath))
            }
        }
        if points.isEmpty {
            warn(object.position, listPath, "no control points; the curve changes nothing")
        }
        warnAboutUnknownKeys(in: object, known: ["ParameterID", "Time", "ParameterCurveControlPoints"])
        return ParameterCurve(id, time: time, controlPoints: sortedByTime(points, what: "control points", time: \.time))
    }

    // MARK: Ordering

    /// The items in time order, ties kept in file order; warns once, at the first item that
    /// comes earlier than the one before it.
    private mutating func sortedByTime<Item>(
        _ placed: [Placed<Item>], what: String, time: (Item) -> Double
    ) -> [Item] {
        sortedByTime(placed, what: what, time: time, apart: { _ in 0 })
    }

    /// The items in time order, ties kept in file order; warns once, at the first item that comes
    /// earlier than one before it of the same `kind`. Exporters write a pattern's curves (and
    /// dynamic parameters) one parameter after another, each in order: items of different kinds
    /// act independently, so their order against each other says nothing worth a warning.
    private mutating func sortedByTime<Item, Kind: Hashable>(
        _ placed: [Placed<Item>], what: String, time: (Item) -> Double, apart kind: (Item) -> Kind
    ) -> [Item] {
        var latest: [Kind: Double] = [:]
        for entry in placed {
            let itemTime = time(entry.item)
            if let before = latest.updateValue(itemTime, forKey: kind(entry.item)), before > itemTime {
                warn(entry.position, entry.path, "\(what) are not in time order; sorted by Time")
                break
            }
        }
        return placed.map(\.item).sortedByTimeKeepingOrder(time)
    }
}
