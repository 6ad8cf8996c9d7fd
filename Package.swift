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
        // An app that records a typed store while it runs, for the test of `inspect --follow`.
        .executableTarget(
            name: "patchbay-follow-writer",
            dependencies: ["PatchbayCore", "PatchbayRecorder"],
            path: "Tests/PatchbayFollowWriter"
        ),
        .testTarget(
            name: "PatchbayEndToEndTests",
            dependencies: ["patchbay", "patchbay-follow-writer", "PatchbayTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
