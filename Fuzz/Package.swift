// swift-tools-version:6.0
// The libFuzzer targets (docs/fuzzing.md): a package of its own, so the normal build never sees
// them. Scripts/fuzz.sh builds it with `--sanitize=fuzzer --sanitize=address
// -Xswiftc -parse-as-library` into a scratch path of its own and runs one target or all.
import PackageDescription

let targets = ["ahap", "notation", "notes", "board", "sound", "request", "ff-upload", "haptic", "audio-analysis"]

let package = Package(
    name: "hapticboard-fuzz",
    dependencies: [
        .package(name: "hapticboard", path: ".."),
    ],
    targets: [
        // What every target checks beyond "no crash": invariants that abort (a libFuzzer crash) when broken.
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "ActuatorHAL", package: "hapticboard"),
                .product(name: "HapticRuntime", package: "hapticboard"),
                .product(name: "HardwareMocks", package: "hapticboard"),
            ]
        ),
    ] + targets.map { name in
        .executableTarget(
            name: "fuzz-\(name)",
            dependencies: [
                "FuzzSupport",
                .product(name: "ActuatorHAL", package: "hapticboard"),
                .product(name: "ActuatorHALLinux", package: "hapticboard"),
                .product(name: "HapticRuntime", package: "hapticboard"),
                .product(name: "BoardFiles", package: "hapticboard"),
                .product(name: "HardwareMocks", package: "hapticboard"),
            ]
        )
    }
)
