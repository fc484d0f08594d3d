// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Trellis",
    products: [
        .library(name: "Trellis", targets: ["Trellis"]),
        .library(name: "TrellisLayout", targets: ["TrellisLayout"]),
        .library(name: "TrellisCollectionView", targets: ["TrellisCollectionView"]),
        .library(name: "TrellisRender", targets: ["TrellisRender"]),
        .library(name: "TrellisCLI", targets: ["TrellisCLI"]),
        .executable(name: "trellis", targets: ["trellis"]),
    ],
    targets: [
        .target(name: "TrellisLayout"),
        .target(name: "TrellisCollectionView", dependencies: ["TrellisLayout"]),
        .target(name: "TrellisRender", dependencies: ["TrellisLayout", "TrellisCollectionView"]),
        .target(name: "TrellisCLI", dependencies: ["TrellisLayout", "TrellisCollectionView", "TrellisRender"]),
        .executableTarget(name: "trellis", dependencies: ["TrellisCLI"]),
        .target(name: "Trellis", dependencies: ["TrellisLayout", "TrellisCollectionView", "TrellisRender"]),
        .testTarget(name: "TrellisLayoutTests", dependencies: ["TrellisLayout"]),
        .testTarget(name: "TrellisCollectionViewTests", dependencies: ["TrellisCollectionView", "TrellisLayout"]),
        .testTarget(name: "TrellisRenderTests", dependencies: ["TrellisRender", "TrellisLayout"]),
        .testTarget(
            name: "TrellisCLITests",
            dependencies: ["TrellisCLI", "TrellisRender", "TrellisLayout"],
            exclude: ["Transcripts"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
