// swift-tools-version: 6.0
import PackageDescription

// An app's package that uses Patchbay as a user would: its own state, actions and reducers in
// `TodoCore`, and `todo-inspector`, the Patchbay shell with the app's stores hosted.
let package = Package(
    name: "TodoApp",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TodoCore", targets: ["TodoCore"]),
        .executable(name: "todo-inspector", targets: ["todo-inspector"]),
    ],
    dependencies: [
        .package(name: "Patchbay", path: "../.."),
    ],
    targets: [
        .target(name: "TodoCore", dependencies: [.product(name: "PatchbayCore", package: "Patchbay")]),
        .executableTarget(
            name: "todo-inspector",
            dependencies: ["TodoCore", .product(name: "PatchbayHost", package: "Patchbay")]
        ),
        .testTarget(
            name: "TodoCoreTests",
            dependencies: ["TodoCore", .product(name: "PatchbayRecorder", package: "Patchbay")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
