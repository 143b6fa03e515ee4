import ActuatorHAL
import FoundationEssentials

/// Rules for `inputs:`: lines that parse and are used once, encoders with two lines, bindings that
/// name an input, a content and actuators that exist, and values in range.
extension BoardRules {
    /// The triggers a binding's `on` takes.
    static let bindingTriggers = ["press", "release", "hold", "while-held", "step"]
    /// Debounce longer than this would swallow deliberate double presses.
    static let debounceMilliseconds = 0.0...1_000.0

    /// Problems of the `inputs:` section.
    func inputProblems() -> [BoardFileError] {
        guard let inputs = file.description.inputs else { return [] }
        let root = BoardKeyPath([.key("inputs")])
        var found: [BoardFileError] = []
        func problem(_ path: BoardKeyPath, _ message: String) { found.append(file.problem(at: path, message)) }

        var names: [String: BoardKeyPath] = [:]
        func define(_ name: String, at path: BoardKeyPath) {
            if name.isBlank {
                problem(path, "an input needs a name")
            } else if let first = names[name] {
                problem(path, "the input name '\(name)' is already used at \(first)")
            } else {
                names[name] = path
            }
        }
        // Lines in use: enable lines first, so an input on one is the input's problem.
        var lines: [String: String] = [:]
        for actuator in file.description.actuators {
            if let enable = actuator.enableGPIOs, let line = try? GPIOLineSpecifier(parsing: enable) { lines[line.description] = "the enable line of '\(actuator.name)'" }
        }
        func checkLine(_ text: String, _ path: BoardKeyPath, owner: String) {
            do {
                let line = try GPIOLineSpecifier(parsing: text)
                if let user = lines[line.description] {
                    problem(path, "line \(text) is already \(user)")
                } else {
                    lines[line.description] = "used by input '\(owner)'"
                }
            } catch {
                problem(path, "\(error); expected a line name such as GPIO17 or chip:offset such as gpiochip0:17")
            }
        }
        func checkSettings(_ settings: InputLineDescription, _ path: BoardKeyPath) {
            if let active = settings.active, !["high", "low"].contains(active) {
                problem(path.appending("active"), "expected high or low (the level that means pressed), not '\(active)'")
            }
            if let bias = settings.bias, LineBias(rawValue: bias) == nil {
                problem(path.appending("bias"), "expected \(LineBias.allCases.map(\.rawValue).joined(separator: ", ")), not '\(bias)'")
            }
            if let debounce = settings.debounceMs, !Self.debounceMilliseconds.contains(debounce) {
                problem(path.appending("debounce-ms"), "expected 0...\(Int(Self.debounceMilliseconds.upperBound)) ms, not \(debounce)")
            }
        }

        var buttons: Set<String> = []
        for (index, button) in inputs.buttons.enumerated() {
            let path = root.appending("buttons").appending(index)
            define(button.name, at: path.appending("name"))
            buttons.insert(button.name)
            checkLine(button.line, path.appending("line"), owner: button.name)
            checkSettings(button.settings, path)
            if let key = button.key, InputCode.key(key) == nil {
                problem(path.appending("key"), "unknown key '\(key)'; expected a BTN_* or KEY_* name (BTN_SOUTH, KEY_ENTER) or a code up to \(InputCode.keyMaximum)")
            }
        }
        var encoders: Set<String> = []
        for (index, encoder) in inputs.encoders.enumerated() {
            let path = root.appending("encoders").appending(index)
            define(encoder.name, at: path.appending("name"))
            encoders.insert(encoder.name)
            if encoder.lines.count != 2, !file.unreadKeyPaths.contains(where: { path.appending("lines").isWithin($0) }) {
                problem(path.appending("lines"), "an encoder needs two lines, A and B (such as [GPIO22, GPIO23]), not \(encoder.lines.count)")
            }
            for (lineIndex, line) in encoder.lines.enumerated() {
                checkLine(line, path.appending("lines").appending(lineIndex), owner: encoder.name)
            }
            checkSettings(encoder.settings, path)
            if let steps = encoder.stepsPerDetent, ![1, 2, 4].contains(steps) {
                problem(path.appending("steps-per-detent"), "expected 4 (a full cycle per detent), 2 or 1, not \(steps)")
            }
            if let axis = encoder.axis, InputCode.relativeAxis(axis) == nil {
                problem(path.appending("axis"), "unknown axis '\(axis)'; expected \(InputCode.relativeAxes.keys.sorted().joined(separator: ", ")) or a code up to \(InputCode.relativeMaximum)")
            }
        }
        if let evdev = inputs.evdev {
            let path = root.appending("evdev")
            if evdev.device != Board.simName, !evdev.device.hasPrefix(Self.inputDeviceFolder) {
                problem(path.appending("device"), "expected an input device node under \(Self.inputDeviceFolder) (such as /dev/input/by-id/usb-…-event-kbd), not '\(evdev.device)'")
            }
            for name in evdev.keys.keys.sorted() {
                define(name, at: path.appending("keys").appending(name))
                buttons.insert(name)
                if let code = evdev.keys[name], InputCode.key(code) == nil {
                    problem(path.appending("keys").appending(name), "unknown key '\(code)'; expected a KEY_* or BTN_* name or a code up to \(InputCode.keyMaximum)")
                }
            }
        }

        let library = inputs.library.map { libraryFolder($0) }
        let patterns = library.flatMap(Self.patternNames(in:))
        if let folder = inputs.library, patterns == nil {
            problem(root.appending("library"), "cannot list the content library folder '\(folder)' (relative to the board file)")
        }
        let actuators = Set(file.description.actuators.map(\.name))
        for (index, binding) in inputs.bindings.enumerated() {
            let path = root.appending("bindings").appending(index)
            let isEncoder = encoders.contains(binding.input)
            if !buttons.contains(binding.input), !isEncoder {
                problem(path.appending("input"), Self.unknownReference("input", binding.input, known: buttons.union(encoders)))
            }
            if !Self.bindingTriggers.contains(binding.on) {
                problem(path.appending("on"), "expected \(Self.bindingTriggers.joined(separator: ", ")), not '\(binding.on)'")
            } else if (binding.on == "step") != isEncoder, buttons.contains(binding.input) || isEncoder {
                problem(path.appending("on"), isEncoder ? "'\(binding.input)' is an encoder: it takes 'step'" : "'step' is for encoders; '\(binding.input)' is a button")
            }
            func onlyFor(_ key: String, _ given: Bool, _ triggers: [String]) {
                if given, !triggers.contains(binding.on) { problem(path.appending(key), "'\(key)' is for \(triggers.joined(separator: " and ")) bindings, not '\(binding.on)'") }
            }
            onlyFor("after-ms", binding.afterMs != nil, ["hold"])
            onlyFor("repeat-ms", binding.repeatMs != nil, ["hold"])
            onlyFor("tail", binding.tail != nil, ["while-held"])
            onlyFor("direction", binding.direction != nil, ["step"])
            onlyFor("max-hold-ms", binding.maxHoldMs != nil, ["hold", "while-held"])
            if binding.on == "hold" {
                if let after = binding.afterMs {
                    if !(after > 0) { problem(path.appending("after-ms"), "expected a positive number of milliseconds, not \(after)") }
                } else {
                    problem(path, "a hold binding needs 'after-ms' (how long the button is held before it fires)")
                }
            }
            for (key, value) in [("repeat-ms", binding.repeatMs), ("max-hold-ms", binding.maxHoldMs)] {
                if let value, !(value > 0) { problem(path.appending(key), "expected a positive number of milliseconds, not \(value)") }
            }
            if let direction = binding.direction, ![1, -1].contains(direction) {
                problem(path.appending("direction"), "expected 1 (forward) or -1 (backward), not \(direction)")
            }
            if let priority = binding.priority, !ServicePlayRequest.priorities.contains(priority) {
                problem(path.appending("priority"), "expected an integer in \(ServicePlayRequest.priorities), not \(priority)")
            }
            if let retrigger = binding.retrigger, RetriggerMode(rawValue: retrigger) == nil {
                problem(path.appending("retrigger"), "expected restart or layer, not '\(retrigger)'")
            }
            for name in binding.actuators ?? [] where !actuators.contains(name) {
                problem(path.appending("actuators"), Self.unknownReference("actuator", name, known: actuators))
            }
            found += contentProblems(binding.content, at: path, patterns: patterns, hasLibrary: inputs.library != nil)
            if let tail = binding.tail {
                found += contentProblems(tail.content, at: path.appending("tail"), patterns: patterns, hasLibrary: inputs.library != nil)
            }
        }
        return found
    }

    private func contentProblems(_ content: BindingContentDescription, at path: BoardKeyPath, patterns: Set<String>?, hasLibrary: Bool) -> [BoardFileError] {
        var found: [BoardFileError] = []
        func problem(_ key: String, _ message: String) { found.append(file.problem(at: key.isEmpty ? path : path.appending(key), message)) }
        switch content.given.count {
        case 0: problem("", "say what it plays: one of effect, feedback, event, pattern, notation")
        case 1: break
        default: problem(content.given[1], "give one of \(content.given.joined(separator: ", ")), not several")
        }
        if let effect = content.effect, !(1...123).contains(effect) {
            problem("effect", "ROM effect \(effect) is not 1...123")
        }
        if let feedback = content.feedback, Note.HapticFeedback(name: feedback) == nil {
            problem("feedback", "unknown feedback '\(feedback)'; expected \(Note.HapticFeedback.names)")
        }
        if let intensity = content.intensity {
            if content.feedback == nil { problem("intensity", "'intensity' goes with 'feedback'") }
            if !(0...1).contains(intensity) { problem("intensity", "expected 0...1, not \(intensity)") }
        }
        if let pattern = content.pattern {
            if !hasLibrary {
                problem("pattern", "'\(pattern)' comes from the content library, and inputs: names none; add 'library: FOLDER' (relative to the board file)")
            } else if let patterns, !patterns.contains(pattern) {
                let suggestion = NameSuggestion.nearest(to: pattern, in: Array(patterns)).map { "; did you mean '\($0)'?" } ?? ""
                problem("pattern", "no pattern '\(pattern)' in the content library\(suggestion)")
            }
        }
        if let notation = content.notation {
            do {
                _ = try ContentLoader.parse(notation, format: .notation, file: "notation")
            } catch {
                problem("notation", "\(error)")
            }
        }
        return found
    }

    /// `folder` from the board file's own folder (absolute paths as they are).
    func libraryFolder(_ folder: String) -> URL {
        if folder.hasPrefix("/") { return URL(fileURLWithPath: folder) }
        return URL(fileURLWithPath: file.path).deletingLastPathComponent().appendingPathComponent(folder)
    }

    /// The names `ContentLibrary` would answer to in `folder`, without loading the files.
    static func patternNames(in folder: URL) -> Set<String>? {
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return nil }
        var names: Set<String> = []
        for name in files where !name.hasPrefix(".") {
            let url = URL(fileURLWithPath: name)
            guard ContentLoader.knownExtensions.contains(url.pathExtension.lowercased()) else { continue }
            names.insert(name)
            names.insert(url.deletingPathExtension().lastPathComponent)
        }
        return names
    }
}
