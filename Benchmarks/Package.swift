// swift-tools-version: 6.0
import PackageDescription

// The benchmark suite, kept out of the root package so that its release builds and its peer
// dependencies (OpenCombine, RoutingKit) never touch the product. Build it in release mode and
// run it from this folder:
//   swift build -c release && .build/release/patchbay-benchmarks [--quick] [--filter TEXT]
let package = Package(
    name: "PatchbayBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Patchbay", path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        .package(url: "https://github.com/vapor/routing-kit", from: "4.9.3"),
    ],
    targets: [
        // mallinfo2 (glibc's malloc.h is not in Swift's Glibc module), for the memory rows.
        .target(name: "CMallocInfo", path: "Sources/CMallocInfo"),
        .executableTarget(
            name: "patchbay-benchmarks",
            dependencies: [
                .product(name: "PatchbayCore", package: "Patchbay"),
                .product(name: "PatchbayRecorder", package: "Patchbay"),
                // The shell's modules (PatchbayGraph, PatchbayHistory, PatchbayShell) come with it.
                .product(name: "PatchbayHost", package: "Patchbay"),
                "CMallocInfo",
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "RoutingKit", package: "routing-kit"),
            ],
            path: "Sources/PatchbayBenchmarks",
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
