// swift-tools-version:6.0
// The libraries and their unit tests for Debian trixie's Swift 6.0.3, where the dependency versions
// a machine's package source offers all need a newer Swift (a mirror holding one release of each
// package). Scripts/check-trixie-swiftlang.sh copies this manifest into a copy of the project, beside
// the sources of the dependency releases the project resolves (Vendor/NAME), so 6.0.3 compiles
// those sources without reading their manifests; each dependency target repeats only the settings
// its own manifest gives it on Linux. Everything under Sources, HardwareMocks and Tests is the
// project's own, as Package.swift builds it; the command (`hapticboard`, with the HTTP service)
// and its tests are not here: they need swift-nio and Hummingbird.
import PackageDescription

/// swift-system's availability macros (`@available(System 0.0.1, *)`), as its manifest defines them
/// for a package build (SwiftPM's default availability).
let systemAvailability: [SwiftSetting] = ["0.0.1", "0.0.2", "0.0.3", "1.1.0", "1.1.1", "1.2.0", "1.2.1", "1.3.0", "1.3.1", "1.3.2", "1.4.0", "1.7.0", "199"]
    .map { .enableExperimentalFeature("AvailabilityMacro=System \($0):macOS 10.10, iOS 8.0, watchOS 2.0, tvOS 9.0, visionOS 1.0") }

let package = Package(
    name: "hapticboard-libraries",
    targets: [
        // The dependencies, from their sources.
        .target(name: "CSystem", path: "Vendor/swift-system/Sources/CSystem", exclude: ["CMakeLists.txt"]),
        .target(
            name: "SystemPackage", dependencies: ["CSystem"], path: "Vendor/swift-system/Sources/System", exclude: ["CMakeLists.txt"],
            swiftSettings: systemAvailability + [.define("SYSTEM_PACKAGE"), .define("ENABLE_MOCKING", .when(configuration: .debug))]
        ),
        .target(name: "Logging", path: "Vendor/swift-log/Sources/Logging", exclude: ["CMakeLists.txt"]),
        .target(name: "CYaml", path: "Vendor/Yams/Sources/CYaml", exclude: ["CMakeLists.txt"], cSettings: [.define("YAML_DECLARE_EXPORT")]),
        // Yams (tools 5.4) and malloc-interposer (5.10) are Swift 5 packages.
        .target(name: "Yams", dependencies: ["CYaml"], path: "Vendor/Yams/Sources/Yams", exclude: ["CMakeLists.txt"], swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(
            name: "MallocInterposerC", path: "Vendor/malloc-interposer/Sources/MallocInterposerC", publicHeadersPath: "include",
            linkerSettings: [.linkedLibrary("dl")]
        ),
        .target(
            name: "MallocInterposerSwift", dependencies: ["MallocInterposerC"], path: "Vendor/malloc-interposer/Sources/MallocInterposerSwift",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),

        // The project's libraries.
        .target(
            name: "CDrivers",
            linkerSettings: ["i2c", "gpiod", "asound", "sndfile", "samplerate", "kissfft-float"].map { .linkedLibrary($0) }
        ),
        .target(name: "ActuatorHAL", dependencies: ["SystemPackage"]),
        .target(name: "ActuatorHALLinux", dependencies: ["ActuatorHAL", "CDrivers", "Logging", "SystemPackage"]),
        .target(name: "HardwareMocks", dependencies: ["ActuatorHAL"], path: "HardwareMocks"),
        .target(name: "HapticRuntime", dependencies: ["ActuatorHAL", "Logging", "Yams"]),
        .target(name: "AllocationCounting", path: "Tests/AllocationCounting"),

        // Their unit tests.
        .testTarget(name: "ActuatorHALTests", dependencies: ["ActuatorHAL", "HardwareMocks"]),
        .testTarget(name: "ActuatorHALLinuxTests", dependencies: ["ActuatorHALLinux", "ActuatorHAL", "HardwareMocks"], exclude: ["FuzzFindings"]),
        .testTarget(name: "HardwareMocksTests", dependencies: ["ActuatorHAL", "HardwareMocks"]),
        .testTarget(
            name: "HapticRuntimeTests",
            dependencies: ["HapticRuntime", "ActuatorHAL", "ActuatorHALLinux", "HardwareMocks", "AllocationCounting", "MallocInterposerSwift"],
            exclude: ["FuzzFindings"]
        ),
    ]
)
