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
        .library(name: "PatchbayHost", targets: ["PatchbayHost"]),
        // The shell's own model and interpreter, for tools that drive it (the benchmarks).
        .library(name: "PatchbayGraph", targets: ["PatchbayGraph"]),
        .library(name: "PatchbayTimeTravel", targets: ["PatchbayTimeTravel"]),
        .library(name: "PatchbayShell", targets: ["PatchbayShell"]),
        .executable(name: "patchbay", targets: ["patchbay"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // `swift package generate-documentation --target PatchbayCore` (and the other libraries).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
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
            dependencies: [.product(name: "OrderedCollections", package: "swift-collections")],
            swiftSettings: strictSettings
        ),
        // Depends on PatchbayCore alone, without Foundation: the end-to-end tests run it to
        // show that such a program links and works.
        .executableTarget(
            name: "patchbay-core-check",
            dependencies: ["PatchbayCore"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PatchbayGraph",
            dependencies: [
                "PatchbayCore",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strictSettings,
            // The expressions' rounding builtins call libm (round, floor, ceil, trunc, rint):
            // linked here, not left to Foundation or another library to bring in.
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux, .android]))]
        ),
        .target(
            name: "PatchbayRecorder",
            dependencies: ["PatchbayCore"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PatchbayTimeTravel",
            dependencies: ["PatchbayCore", "PatchbayGraph", "PatchbayRecorder"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PatchbayShell",
            dependencies: ["PatchbayCore", "PatchbayGraph", "PatchbayRecorder", "PatchbayTimeTravel"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PatchbayHost",
            dependencies: [
                "PatchbayCore",
                "PatchbayGraph",
                "PatchbayShell",
                "CLibEdit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "patchbay",
            dependencies: ["PatchbayHost"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PatchbayTestSupport",
            path: "Tests/PatchbayTestSupport"
        ),
        .testTarget(
            name: "PatchbayCoreTests",
            dependencies: ["PatchbayCore", "PatchbayGraph", "PatchbayTestSupport"]
        ),
        .testTarget(
            name: "PatchbayRecorderTests",
            dependencies: ["PatchbayRecorder", "PatchbayGraph", "PatchbayTimeTravel", "PatchbayTestSupport"]
        ),
        .testTarget(
            name: "PatchbayShellTests",
            dependencies: ["PatchbayShell", "PatchbayGraph", "PatchbayRecorder", "PatchbayTimeTravel", "PatchbayTestSupport"]
        ),
        // An app that records a typed store while it runs, for the test of `inspect --follow`.
        .executableTarget(
            name: "patchbay-follow-writer",
            dependencies: ["PatchbayCore", "PatchbayRecorder"],
            path: "Tests/PatchbayFollowWriter"
        ),
        .testTarget(
            name: "PatchbayEndToEndTests",
            dependencies: ["patchbay", "patchbay-core-check", "patchbay-follow-writer", "PatchbayTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
