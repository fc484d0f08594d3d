// swift-tools-version: 6.0
import PackageDescription

// Benchmarks live in their own package so the main package's tests never build them; run with
// `swift run -c release --package-path Benchmarks`.
let package = Package(
    name: "TrellisBenchmarks",
    dependencies: [.package(name: "Trellis", path: "..")],
    targets: [
        .executableTarget(
            name: "TrellisBenchmarks",
            dependencies: [.product(name: "TrellisCollectionView", package: "Trellis"),
                           .product(name: "TrellisLayouts", package: "Trellis"),
                           .product(name: "TrellisGrid", package: "Trellis"),
                           .product(name: "TrellisRender", package: "Trellis"),
                           .product(name: "TrellisSQL", package: "Trellis"),
                           .product(name: "TrellisCLI", package: "Trellis"),
                           .product(name: "TrellisText", package: "Trellis"),
                           .product(name: "TrellisTestSupport", package: "Trellis"),
                           .product(name: "TrellisWorkbook", package: "Trellis")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
