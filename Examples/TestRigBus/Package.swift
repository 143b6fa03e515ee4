// swift-tools-version:6.0
// A package of its own that depends only on hapticboard's protocol, driver and runtime products
// (no Linux back end): it must build and link without libgpiod, libi2c or libasound, as firmware
// unit-testing against mocks does. Scripts/check-consumer-package.sh builds it, checks its link
// line and runs it.
import PackageDescription

let package = Package(
    name: "test-rig-bus",
    dependencies: [
        .package(name: "hapticboard", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "test-rig-bus",
            dependencies: [
                .product(name: "ActuatorHAL", package: "hapticboard"),
                .product(name: "HapticRuntime", package: "hapticboard"),
                .product(name: "HardwareMocks", package: "hapticboard"),
            ]
        ),
    ]
)
