// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "hapticboard",
    products: [
        .library(name: "ActuatorHAL", targets: ["ActuatorHAL"]),
        .library(name: "HapticRuntime", targets: ["HapticRuntime"]),
        .library(name: "HardwareMocks", targets: ["HardwareMocks"]),
        .executable(name: "hapticboard", targets: ["hapticboard"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        // Tests only: counts allocations, to prove the real-time path makes none.
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
    ],
    targets: [
        // Thin C shims over i2c-dev + libi2c, libgpiod (1.6 or 2.x, chosen by its header), ALSA,
        // libsndfile (sound file decoding) and libsamplerate (resampling to the device rate).
        .target(
            name: "CDrivers",
            linkerSettings: [
                .linkedLibrary("i2c"),
                .linkedLibrary("gpiod"),
                .linkedLibrary("asound"),
                .linkedLibrary("sndfile"),
                .linkedLibrary("samplerate"),
            ]
        ),
        .target(
            name: "ActuatorHAL",
            dependencies: [
                "CDrivers",
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
        .executableTarget(
            name: "hapticboard",
            dependencies: [
                "ActuatorHAL",
                "HapticRuntime",
                "HardwareMocks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // The README's library example, built with everything else so it cannot rot.
        .executableTarget(
            name: "hapticboard-example",
            dependencies: ["ActuatorHAL", "HapticRuntime", "HardwareMocks"],
            path: "Examples/swift"
        ),
        // The kernel lane's chip: runs the DRV2605 model against Linux's i2c-stub register file.
        .executableTarget(
            name: "hapticboard-chip",
            dependencies: ["ActuatorHAL", "HardwareMocks"]
        ),
        // The kernel lane's audio check: writes the reference sound, measures Loopback captures.
        .executableTarget(
            name: "hapticboard-capture",
            dependencies: ["ActuatorHAL", "HardwareMocks"]
        ),
        .testTarget(name: "ActuatorHALTests", dependencies: ["ActuatorHAL", "HardwareMocks"]),
        .testTarget(name: "HardwareMocksTests", dependencies: ["ActuatorHAL", "HardwareMocks"]),
        // A thread-local allocation counter for the malloc interposer's hook.
        .target(name: "AllocationCounting", path: "Tests/AllocationCounting"),
        .testTarget(
            name: "HapticRuntimeTests",
            dependencies: [
                "HapticRuntime", "ActuatorHAL", "HardwareMocks", "AllocationCounting",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        ),
        .testTarget(name: "hapticboardTests", dependencies: ["hapticboard"]),
    ]
)
