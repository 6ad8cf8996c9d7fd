// swift-tools-version: 6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Patchbay",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "PatchbayCore", targets: ["PatchbayCore"]),
        .library(name: "PatchbayRecorder", targets: ["PatchbayRecorder"]),
        .library(name: "PatchbayShell", targets: ["PatchbayShell"]),
        .executable(name: "patchbay", targets: ["patchbay"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibEdit",
            path: "Sources/CLibEdit",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        .target(
            name: "PatchbayCore",
            dependencies: [
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strictSettings,
            // The rounding builtins call libm (round, floor, ceil, trunc, rint). Without
            // Foundation nothing else is sure to link it: say so, for packages that depend on
            // PatchbayCore alone (checked by the patchbay-core-check program).
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux, .android]))]
        ),
        // Depends on PatchbayCore alone, without Foundation: the end-to-end tests run it to
        // show that such a program links and works.
        .executableTarget(
            name: "patchbay-core-check",
            dependencies: ["PatchbayCore"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PatchbayRecorder",
            dependencies: ["PatchbayCore"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PatchbayShell",
            dependencies: ["PatchbayCore", "PatchbayRecorder"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "patchbay",
            dependencies: [
                "PatchbayCore",
                "PatchbayShell",
                "CLibEdit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PatchbayTestSupport",
            path: "Tests/PatchbayTestSupport"
        ),
        .testTarget(
            name: "PatchbayCoreTests",
            dependencies: ["PatchbayCore", "PatchbayTestSupport"]
        ),
        .testTarget(
            name: "PatchbayRecorderTests",
            dependencies: ["PatchbayRecorder", "PatchbayTestSupport"]
        ),
        .testTarget(
            name: "PatchbayShellTests",
            dependencies: ["PatchbayShell", "PatchbayRecorder", "PatchbayTestSupport"]
        ),
        .testTarget(
            name: "PatchbayEndToEndTests",
            dependencies: ["patchbay", "patchbay-core-check", "PatchbayTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
