// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "hapticboard",
    products: [
        // Protocols and chip drivers; no C library.
        .library(name: "ActuatorHAL", targets: ["ActuatorHAL"]),
        // The Linux back ends of ActuatorHAL's protocols: i2c-dev, libgpiod, ALSA, libsndfile,
        // kissfft, real-time threads, signals and the crash guardian.
        .library(name: "ActuatorHALLinux", targets: ["ActuatorHALLinux"]),
        // Content, compiler, scheduler, engine, boards and playback sessions; no C library.
        .library(name: "HapticRuntime", targets: ["HapticRuntime"]),
        .library(name: "BoardFiles", targets: ["BoardFiles"]),
        .library(name: "HardwareMocks", targets: ["HardwareMocks"]),
        .executable(name: "hapticboard", targets: ["hapticboard"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        // `hapticboard serve`: HTTP and WebSocket on a Unix socket, lifecycle, metrics. The
        // command's client side uses SwiftNIO's HTTP and WebSocket codecs, which come with them
        // (a TLS-capable client would compile BoringSSL into every build for a local socket).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Tests only: counts allocations, to prove the real-time path makes none.
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
    ] + propertyTesting.package,
    targets: [
        // Thin C shims over i2c-dev + libi2c, libgpiod (1.6 or 2.x, chosen by its header), ALSA,
        // libsndfile (sound file decoding), libsamplerate (resampling to the device rate) and kissfft
        // (the FFT of the sound analysis; BSD-licensed, like every library here permissive).
        .target(
            name: "CDrivers",
            linkerSettings: [
                .linkedLibrary("i2c"),
                .linkedLibrary("gpiod"),
                .linkedLibrary("asound"),
                // libsndfile is not linked: sound_file.c loads it at its first use, so that its
                // codecs are not mapped into processes that read no sound file.
                .linkedLibrary("samplerate"),
                .linkedLibrary("kissfft-float"),
            ]
        ),
        .target(
            name: "ActuatorHAL",
            dependencies: [
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .target(
            name: "ActuatorHALLinux",
            dependencies: [
                "ActuatorHAL",
                "CDrivers",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .target(
            name: "HardwareMocks",
            dependencies: ["ActuatorHAL"],
            path: "HardwareMocks"
        ),
        .target(
            name: "HapticRuntime",
            dependencies: [
                "ActuatorHAL",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "BoardFiles",
            dependencies: [
                "HapticRuntime",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .executableTarget(
            name: "hapticboard",
            dependencies: [
                "ActuatorHAL",
                "ActuatorHALLinux",
                "HapticRuntime",
                "BoardFiles",
                "HardwareMocks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            resources: [.embedInCode("Serve/openapi.json")],
            // Release keeps each of the command's functions in a section of its own, so that the
            // linker can lay out together the ones `play` runs (below).
            swiftSettings: [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))],
            // Release links with lld and packed relative relocations (DT_RELR, glibc 2.36: Debian
            // 12 and Pi OS bookworm): the PIE's 2.8 MB of relative relocations, written and read
            // at every start, become 23 KB — 2.9 MB less binary and 1–2 MB less resident memory,
            // with the address randomisation a non-PIE link would give up. The functions `play`
            // runs are laid out together (Packaging/hapticboard.order, Scripts/make-order-file.sh),
            // and the binary exports no dynamic symbols, which the loader would otherwise search at
            // every start: 23 MB resident while playing becomes 15 (docs/performance.md).
            linkerSettings: [.unsafeFlags([
                "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Packaging/hapticboard.order",
                "-Xlinker", "--no-warn-symbol-ordering", "-Xlinker", "--no-export-dynamic",
            ], .when(configuration: .release))]
        ),
        // Examples, built with everything else and run by the tests so they cannot rot.
        .executableTarget(
            name: "play-a-file",
            dependencies: ["ActuatorHALLinux", "HapticRuntime", "BoardFiles", "HardwareMocks"],
            path: "Examples/PlayAFile"
        ),
        .executableTarget(
            name: "kiosk-button",
            dependencies: ["ActuatorHAL", "ActuatorHALLinux", "HapticRuntime", "BoardFiles", "HardwareMocks"],
            path: "Examples/KioskButton"
        ),
        // The kernel lane's chip: runs the DRV2605 model against Linux's i2c-stub register file.
        .executableTarget(
            name: "hapticboard-chip",
            dependencies: ["ActuatorHAL", "ActuatorHALLinux", "HardwareMocks"]
        ),
        // The kernel lane's audio check: writes the reference sound, measures Loopback captures.
        .executableTarget(
            name: "hapticboard-capture",
            dependencies: ["ActuatorHAL", "ActuatorHALLinux", "HardwareMocks"]
        ),
        .testTarget(name: "ActuatorHALTests", dependencies: ["ActuatorHAL", "HardwareMocks"]),
        // FuzzFindings/: inputs the fuzz targets found, replayed by the tests beside them.
        .testTarget(name: "ActuatorHALLinuxTests", dependencies: ["ActuatorHALLinux", "ActuatorHAL", "HardwareMocks"], exclude: ["FuzzFindings"]),
        .testTarget(name: "HardwareMocksTests", dependencies: ["ActuatorHAL", "HardwareMocks"]),
        // A thread-local allocation counter for the malloc interposer's hook.
        .target(name: "AllocationCounting", path: "Tests/AllocationCounting"),
        // The runtime's tests also decode real sound files, through the Linux back end.
        .testTarget(
            name: "HapticRuntimeTests",
            dependencies: [
                "HapticRuntime", "BoardFiles", "ActuatorHAL", "ActuatorHALLinux", "HardwareMocks", "AllocationCounting",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ] + propertyTesting.product,
            exclude: ["FuzzFindings"]
        ),
        .testTarget(name: "hapticboardTests", dependencies: [
            "hapticboard",
            .product(name: "NIOEmbedded", package: "swift-nio"),
        ]),
    ]
)

// Tests only: property tests (generated patterns) through Swift Testing. swift-property-based's
// manifest asks for tools 6.1, and Debian trixie's swiftlang (what Raspberry Pi OS users get from
// apt) is 6.0.3: there the package builds and tests without these tests
// (Scripts/check-trixie-swiftlang.sh), and PatternPropertyTests compiles to nothing.
var propertyTesting: (package: [Package.Dependency], product: [Target.Dependency]) {
    #if compiler(>=6.1)
    return (
        [.package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1")],
        [.product(name: "PropertyBased", package: "swift-property-based")]
    )
    #else
    return ([], [])
    #endif
}
