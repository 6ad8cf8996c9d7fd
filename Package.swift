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
        // An app's own inspector: the shell, hosting the app's stores. Its modules (PatchbayGraph,
        // PatchbayHistory, PatchbayShell) come with it; they are the shell's, with no promise
        // of a stable API (the benchmarks drive them through this product).
        .library(name: "PatchbayHost", targets: ["PatchbayHost"]),
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
        // Each store's history of states (time travel, branches, blame), the Redux DevTools
        // format, and sessions recorded from the shell's graph and read back into it.
        .target(
            name: "PatchbayHistory",
            dependencies: ["PatchbayCore", "PatchbayGraph", "PatchbayRecorder"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PatchbayShell",
            dependencies: ["PatchbayCore", "PatchbayGraph", "PatchbayRecorder", "PatchbayHistory"],
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
            dependencies: ["PatchbayCore"],
            path: "Tests/PatchbayTestSupport"
        ),
        // One test target per module, named after it.
        .testTarget(name: "PatchbayCoreTests", dependencies: ["PatchbayCore", "PatchbayTestSupport"]),
        .testTarget(name: "PatchbayGraphTests", dependencies: ["PatchbayCore", "PatchbayGraph", "PatchbayTestSupport"]),
        .testTarget(
            name: "PatchbayRecorderTests",
            dependencies: ["PatchbayRecorder", "PatchbayGraph", "PatchbayHistory", "PatchbayTestSupport"]
        ),
        .testTarget(
            name: "PatchbayHistoryTests",
            dependencies: ["PatchbayHistory", "PatchbayRecorder", "PatchbayGraph", "PatchbayTestSupport"]
        ),
        .testTarget(
            name: "PatchbayShellTests",
            dependencies: ["PatchbayShell", "PatchbayGraph", "PatchbayRecorder", "PatchbayHistory", "PatchbayTestSupport"]
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
