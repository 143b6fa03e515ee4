// Writes one Swift 6.0 package manifest holding the project's targets and every target of its
// resolved dependencies they need, each dependency target's sources under Vendor/NAME, from what
// `swift package dump-package` says of the project and of each checkout (with this machine's newer
// Swift). Scripts/check-trixie-swiftlang.sh builds it with Debian trixie's Swift 6.0.3 where the
// dependency releases this machine offers all declare a newer tools version than 6.0: their
// manifests cannot be read there, their sources can.
//
// Usage: swift Scripts/trixie-manifest.swift PROJECT CHECKOUTS [--without TARGET]... > Package.swift
// --without leaves out a project target and every project target that needs it. Left out always:
// products of packages that need Swift 6.1 to build at all (swift-property-based; the project's
// Package.swift leaves it out below 6.1 as well), and settings for other platforms.
import Foundation

typealias JSON = [String: Any]

struct ManifestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Packages whose products are dropped: they need Swift 6.1 to build at all, and the project's own
/// manifest drops them below 6.1 too.
let leftOut: Set<String> = ["swift-property-based"]

/// The package's manifest as this machine's Swift evaluates it for Linux, as JSON.
func dumpPackage(at path: String) throws -> JSON {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift", "package", "dump-package", "--package-path", path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0, let json = try JSONSerialization.jsonObject(with: data) as? JSON else {
        throw ManifestError("swift package dump-package failed in \(path)")
    }
    return json
}

/// One package as dumped, with where its sources are in the generated package.
struct DumpedPackage {
    let identity: String
    let json: JSON
    /// The folder its target paths are relative to, in the generated package ("" for the project).
    let root: String
    let isProject: Bool

    var targets: [JSON] { json["targets"] as? [JSON] ?? [] }
    var products: [JSON] { json["products"] as? [JSON] ?? [] }

    func target(named name: String) -> JSON? { targets.first { $0["name"] as? String == name } }

    /// Traits on by default: settings and dependencies behind any other trait are left out.
    var defaultTraits: Set<String> {
        let traits = json["traits"] as? [JSON] ?? []
        let defaults = traits.first { $0["name"] as? String == "default" }?["enabledTraits"] as? [String] ?? []
        return Set(defaults)
    }

    /// The package's Swift language mode where its targets say none: its own list's newest up to
    /// 6, else what its tools version implies.
    var languageMode: Int {
        if let modes = json["swiftLanguageVersions"] as? [String] {
            return modes.compactMap { Int($0.prefix { $0.isNumber }) }.filter { $0 <= 6 }.max() ?? 5
        }
        let version = (json["toolsVersion"] as? JSON)?["_version"] as? String ?? "5"
        return (Int(version.prefix { $0.isNumber }) ?? 5) >= 6 ? 6 : 5
    }
}

/// Whether a dumped condition holds for a Linux build with the package's default traits.
func holds(_ condition: Any?, traits: Set<String>) -> Bool {
    guard let condition = condition as? JSON else { return true }
    if let platforms = condition["platformNames"] as? [String], !platforms.isEmpty, !platforms.contains("linux") { return false }
    if let needed = condition["traits"] as? [String], !needed.isEmpty, traits.isDisjoint(with: needed) { return false }
    return true
}

func literal(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}

func literals(_ texts: [String]) -> String { "[" + texts.map(literal).joined(separator: ", ") + "]" }

/// A dumped setting as PackageDescription 6.0 spells it; nil when it does not apply here.
func setting(_ json: JSON, traits: Set<String>) throws -> (tool: String, text: String)? {
    guard holds(json["condition"], traits: traits), let tool = json["tool"] as? String,
          let kind = json["kind"] as? JSON, let (name, value) = kind.first else { return nil }
    let argument = (value as? JSON)?["_0"]
    let configuration = ((json["condition"] as? JSON)?["config"] as? String).map { ", .when(configuration: .\($0))" } ?? ""
    switch name {
    case "define":
        let definition = (argument as? String ?? "").split(separator: "=", maxSplits: 1).map(String.init)
        let value = definition.count == 2 ? ", to: \(literal(definition[1]))" : ""
        return (tool, ".define(\(literal(definition[0]))\(value)\(configuration))")
    case "unsafeFlags": return (tool, ".unsafeFlags(\(literals(argument as? [String] ?? []))\(configuration))")
    case "enableUpcomingFeature": return (tool, ".enableUpcomingFeature(\(literal(argument as? String ?? ""))\(configuration))")
    case "enableExperimentalFeature": return (tool, ".enableExperimentalFeature(\(literal(argument as? String ?? ""))\(configuration))")
    case "headerSearchPath": return (tool, ".headerSearchPath(\(literal(argument as? String ?? ""))\(configuration))")
    case "linkedLibrary": return (tool, ".linkedLibrary(\(literal(argument as? String ?? ""))\(configuration))")
    case "linkedFramework": return nil
    case "swiftLanguageMode":
        let mode = (argument as? JSON)?["version"] as? String ?? (argument as? String) ?? "6"
        return (tool, ".swiftLanguageMode(.v\(mode.prefix { $0.isNumber }))")
    default: throw ManifestError("a \(tool) setting of kind \(name) that this generator does not know")
    }
}

/// The target's declaration in the generated manifest: its sources where the generated package keeps
/// them, and its settings as they apply on Linux with its package's default traits.
func declaration(of target: JSON, named name: String, in package: DumpedPackage, dependencies: [String]) throws -> String {
    let type = target["type"] as? String ?? "regular"
    let path = package.root + (target["path"] as? String ?? "\(type == "test" ? "Tests" : "Sources")/\(name)")
    if type == "system" {
        let pkgConfig = (target["pkgConfig"] as? String).map { ", pkgConfig: \(literal($0))" } ?? ""
        return "    .systemLibrary(name: \(literal(name)), path: \(literal(path))\(pkgConfig)),"
    }
    var fields = ["name: \(literal(name))", "dependencies: \(literals(dependencies))", "path: \(literal(path))"]
    if let exclude = target["exclude"] as? [String], !exclude.isEmpty { fields.append("exclude: \(literals(exclude))") }
    if let sources = target["sources"] as? [String] { fields.append("sources: \(literals(sources))") }
    if let resources = target["resources"] as? [JSON], !resources.isEmpty {
        let rules = resources.map { resource -> String in
            let rule = (resource["rule"] as? JSON)?.keys.first ?? "process"
            return ".\(rule)(\(literal(resource["path"] as? String ?? "")))"
        }
        fields.append("resources: [\(rules.joined(separator: ", "))]")
    }
    if let headers = target["publicHeadersPath"] as? String { fields.append("publicHeadersPath: \(literal(headers))") }
    var settings: [String: [String]] = [:]
    for json in target["settings"] as? [JSON] ?? [] {
        if let (tool, text) = try setting(json, traits: package.defaultTraits) { settings[tool, default: []].append(text) }
    }
    // A 6.0 manifest's targets default to Swift 6; a Swift 5 package's are not written for it.
    let swift = settings["swift"] ?? []
    if !package.isProject, package.languageMode == 5, !swift.contains(where: { $0.hasPrefix(".swiftLanguageMode") }) {
        settings["swift", default: []].append(".swiftLanguageMode(.v5)")
    }
    for (tool, label) in [("c", "cSettings"), ("cxx", "cxxSettings"), ("swift", "swiftSettings"), ("linker", "linkerSettings")] {
        if let texts = settings[tool], !texts.isEmpty { fields.append("\(label): [\(texts.joined(separator: ", "))]") }
    }
    switch type {
    case "regular": return "    .target(\(fields.joined(separator: ", "))),"
    case "executable": return "    .executableTarget(\(fields.joined(separator: ", "))),"
    case "test": return "    .testTarget(\(fields.joined(separator: ", "))),"
    default: throw ManifestError("\(package.identity)'s target \(name) is a \(type) target")
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
var without: Set<String> = []
var paths: [String] = []
var argumentIndex = 0
while argumentIndex < arguments.count {
    if arguments[argumentIndex] == "--without", argumentIndex + 1 < arguments.count {
        without.insert(arguments[argumentIndex + 1])
        argumentIndex += 2
    } else {
        paths.append(arguments[argumentIndex])
        argumentIndex += 1
    }
}
guard paths.count == 2 else {
    FileHandle.standardError.write(Data("usage: swift trixie-manifest.swift PROJECT CHECKOUTS [--without TARGET]...\n".utf8))
    exit(2)
}
let projectPath = paths[0], checkoutsPath = paths[1]

do {
    var packages: [String: DumpedPackage] = [:]
    let project = DumpedPackage(identity: "", json: try dumpPackage(at: projectPath), root: "", isProject: true)
    for folder in try FileManager.default.contentsOfDirectory(atPath: checkoutsPath).sorted()
    where FileManager.default.fileExists(atPath: "\(checkoutsPath)/\(folder)/Package.swift") {
        let identity = folder.lowercased()
        packages[identity] = DumpedPackage(identity: identity, json: try dumpPackage(at: "\(checkoutsPath)/\(folder)"),
                                           root: "Vendor/\(folder)/", isProject: false)
    }

    /// The targets a dependency names, as (package, target name).
    func resolve(_ dependency: JSON, in package: DumpedPackage) throws -> [(DumpedPackage, String)] {
        guard let (kind, value) = dependency.first, let fields = value as? [Any?] else { return [] }
        guard holds(fields.last ?? nil, traits: package.defaultTraits) else { return [] }
        let name = fields[0] as? String ?? ""
        func product(_ name: String, of owner: DumpedPackage) throws -> [(DumpedPackage, String)] {
            guard let product = owner.products.first(where: { $0["name"] as? String == name }) else {
                throw ManifestError("\(owner.identity) has no product \(name)")
            }
            return (product["targets"] as? [String] ?? []).map { (owner, $0) }
        }
        switch kind {
        case "target": return [(package, name)]
        case "byName":
            if package.target(named: name) != nil { return [(package, name)] }
            if let owner = packages[name.lowercased()] { return try product(name, of: owner) }
            throw ManifestError("\(package.identity): \(name) is neither a target nor a package's product")
        case "product":
            let identity = (fields[1] as? String ?? "").lowercased()
            if leftOut.contains(identity) { return [] }
            guard let owner = packages[identity] else { throw ManifestError("no checkout of \(identity)") }
            return try product(name, of: owner)
        default: throw ManifestError("a dependency of kind \(kind)")
        }
    }

    // Every project target but those left out and those needing them, then what they need, breadth
    // first.
    var leftOutTargets = without
    var changed = true
    while changed {
        changed = false
        for target in project.targets {
            guard let name = target["name"] as? String, !leftOutTargets.contains(name) else { continue }
            let needs = (target["dependencies"] as? [JSON] ?? []).compactMap { ($0["byName"] ?? $0["target"]) as? [Any?] }.compactMap { $0.first as? String }
            if needs.contains(where: leftOutTargets.contains) {
                leftOutTargets.insert(name)
                changed = true
            }
        }
    }
    var order: [(DumpedPackage, String)] = project.targets.compactMap { $0["name"] as? String }
        .filter { !leftOutTargets.contains($0) }.map { (project, $0) }
    var seen: [String: String] = [:]
    var index = 0
    var lines: [String] = []
    var cxxStandards: Set<String> = []
    while index < order.count {
        let (package, name) = order[index]
        index += 1
        guard let target = package.target(named: name) else { throw ManifestError("\(package.identity) has no target \(name)") }
        if let owner = seen[name] {
            if owner == package.identity { continue }
            throw ManifestError("two targets named \(name): in \(owner) and \(package.identity)")
        }
        seen[name] = package.identity
        var dependencies: [String] = []
        for dependency in target["dependencies"] as? [JSON] ?? [] {
            for (owner, needed) in try resolve(dependency, in: package) {
                order.append((owner, needed))
                if !dependencies.contains(needed) { dependencies.append(needed) }
            }
        }
        lines.append(try declaration(of: target, named: name, in: package, dependencies: dependencies))
        if let standard = package.json["cxxLanguageStandard"] as? String { cxxStandards.insert(standard) }
    }
    // The newest C++ standard a package asks for (`c++17` → `.cxx17`, `gnu++17` → `.gnucxx17`).
    let cxxStandard = cxxStandards.max { $0.filter(\.isNumber) < $1.filter(\.isNumber) }
        .map { ", cxxLanguageStandard: .\($0.replacingOccurrences(of: "gnu++", with: "gnucxx").replacingOccurrences(of: "c++", with: "cxx"))" } ?? ""
    print("""
    // swift-tools-version:6.0
    // Generated by Scripts/trixie-manifest.swift from the project's Package.swift and its
    // resolved dependencies' manifests, for Debian trixie's Swift 6.0.3. Not for editing.
    import PackageDescription

    let package = Package(name: "hapticboard-for-swift-6.0", targets: [
    \(lines.joined(separator: "\n"))
    ]\(cxxStandard))
    """)
} catch {
    FileHandle.standardError.write(Data("trixie-manifest.swift: \(error)\n".utf8))
    exit(1)
}
