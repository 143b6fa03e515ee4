// swift-tools-version:6.1
// The library-level benchmarks (ordo-one/benchmark), in a package of their own so the main package
// keeps its tools version and its users never resolve the benchmark framework or its malloc
// interposer. Run from this folder: `swift package benchmark`; `swift package benchmark thresholds
// check` compares against the thresholds kept in Thresholds/.
import PackageDescription

let package = Package(
    name: "hapticboard-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "hapticboard", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // What the benchmarks and the profiling program measure, set up once.
        .target(
            name: "BenchmarkFixtures",
            dependencies: [
                .product(name: "ActuatorHAL", package: "hapticboard"),
                .product(name: "ActuatorHALLinux", package: "hapticboard"),
                .product(name: "HapticRuntime", package: "hapticboard"),
                .product(name: "HardwareMocks", package: "hapticboard"),
            ]
        ),
        // A plain program for `valgrind --tool=callgrind` (docs/performance.md): the hot paths
        // repeated, with nothing of the benchmark framework around them.
        .executableTarget(name: "hotpath-profile", dependencies: ["BenchmarkFixtures"]),
        .executableTarget(
            name: "HapticRuntimeBenchmarks",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "HardwareMocks", package: "hapticboard"),
            ],
            path: "Benchmarks/HapticRuntimeBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
