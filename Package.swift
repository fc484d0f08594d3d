// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Trellis",
    products: [
        .library(name: "Trellis", targets: ["Trellis"]),
        .library(name: "TrellisLayout", targets: ["TrellisLayout"]),
        .library(name: "TrellisCollectionView", targets: ["TrellisCollectionView"]),
        .library(name: "TrellisGrid", targets: ["TrellisGrid"]),
        .library(name: "TrellisRender", targets: ["TrellisRender"]),
        .library(name: "TrellisCLI", targets: ["TrellisCLI"]),
        .executable(name: "trellis", targets: ["trellis"]),
    ],
    targets: [
        .target(name: "TrellisLayout"),
        .target(name: "TrellisCollectionView", dependencies: ["TrellisLayout"]),
        .target(
            name: "TrellisGrid",
            dependencies: ["TrellisLayout"],
            // Locale-aware sorting uses ICU's collation sort keys; on Linux the toolchain's
            // Foundation carries ICU as `_FoundationICU` (elsewhere Foundation's comparison is used).
            linkerSettings: [.linkedLibrary("_FoundationICU", .when(platforms: [.linux]))]
        ),
        .target(name: "TrellisRender", dependencies: ["TrellisLayout", "TrellisCollectionView", "TrellisGrid"]),
        .target(name: "TrellisCLI", dependencies: ["TrellisLayout", "TrellisCollectionView", "TrellisGrid", "TrellisRender"]),
        .executableTarget(name: "trellis", dependencies: ["TrellisCLI"]),
        .target(name: "Trellis", dependencies: ["TrellisLayout", "TrellisCollectionView", "TrellisGrid", "TrellisRender"]),
        // Helpers shared by the test targets; not a product.
        .target(name: "TrellisTestSupport", path: "Sources/TrellisTestSupport"),
        .testTarget(name: "TrellisLayoutTests", dependencies: ["TrellisLayout", "TrellisTestSupport"]),
        .testTarget(name: "TrellisCollectionViewTests",
                    dependencies: ["TrellisCollectionView", "TrellisLayout", "TrellisTestSupport"]),
        .testTarget(name: "TrellisGridTests", dependencies: ["TrellisGrid", "TrellisTestSupport"]),
        .testTarget(name: "TrellisRenderTests", dependencies: ["TrellisRender", "TrellisLayout"]),
        .testTarget(
            name: "TrellisCLITests",
            dependencies: ["TrellisCLI", "TrellisRender", "TrellisLayout", "TrellisTestSupport"],
            exclude: ["Transcripts"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
