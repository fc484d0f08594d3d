// swift-tools-version: 6.0
import PackageDescription

// The commit a build is made from, as Packaging/build-binary says it (`TRELLIS_COMMIT=…`): compiled
// into the one C file that reports it (`trellis --version`), so that a new commit rebuilds that
// file alone. Only a commit's letters are taken (hex digits, and `-modified` for a tree with
// changes); anything else is left out.
let buildCommit = Context.environment["TRELLIS_COMMIT"].flatMap { commit -> String? in
    let parts = commit.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    let hash = parts[0]
    guard (7...40).contains(hash.count), hash.allSatisfy({ "0123456789abcdef".contains($0) }) else { return nil }
    return parts.count == 1 || parts[1] == "modified" ? commit : nil
}

let package = Package(
    name: "Trellis",
    products: [
        .library(name: "Trellis", targets: ["Trellis"]),
        .library(name: "TrellisText", targets: ["TrellisText"]),
        .library(name: "TrellisCollectionView", targets: ["TrellisCollectionView"]),
        .library(name: "TrellisLayouts", targets: ["TrellisLayouts"]),
        .library(name: "TrellisGrid", targets: ["TrellisGrid"]),
        .library(name: "TrellisRender", targets: ["TrellisRender"]),
        .library(name: "TrellisSQL", targets: ["TrellisSQL"]),
        .library(name: "TrellisSources", targets: ["TrellisSources"]),
        .library(name: "TrellisWorkbook", targets: ["TrellisWorkbook"]),
        .library(name: "TrellisPort", targets: ["TrellisPort"]),
        .library(name: "TrellisTesting", targets: ["TrellisTesting"]),
        .library(name: "TrellisCLI", targets: ["TrellisCLI"]),
        // The tests' helpers (child processes, tmux, LibreOffice, openpyxl), for the benchmarks'
        // terminal sessions too.
        .library(name: "TrellisTestSupport", targets: ["TrellisTestSupport"]),
        .executable(name: "trellis", targets: ["trellis"]),
    ],
    targets: [
        // A leaf that the others import: JSON reading and writing, buffered text output, and the
        // width of text in terminal columns.
        .target(name: "TrellisText"),
        // UIKit's collection-view half as one module, as UIKit is one: geometry, views, layouts and
        // the collection view that drives them. The invariant checks of the unsafe layout storage
        // are compiled into debug builds (the tests) only.
        .target(
            name: "TrellisCollectionView",
            swiftSettings: [.define("TRELLIS_INVARIANT_CHECKS", .when(configuration: .debug))]
        ),
        // The layouts people write most (grid, waterfall, justified rows, compositional, circle,
        // carousel) and the data grid's layout, each a `CollectionViewLayout` subclass on the public
        // API of the module above, as a user's would be.
        .target(name: "TrellisLayouts", dependencies: ["TrellisCollectionView", "TrellisGrid", "TrellisText"]),
        // The grid without UI: tables, sources, sorting, the display order.
        .target(
            name: "TrellisGrid",
            dependencies: ["TrellisText"],
            // The invariant checks of the column stores and the radix sort, in debug builds only.
            swiftSettings: [.define("TRELLIS_INVARIANT_CHECKS", .when(configuration: .debug))],
            // Locale-aware sorting uses ICU's collation sort keys; on Linux the toolchain's
            // Foundation carries ICU as `_FoundationICU` (elsewhere Foundation's comparison is used).
            linkerSettings: [.linkedLibrary("_FoundationICU", .when(platforms: [.linux]))]
        ),
        .target(name: "TrellisRender", dependencies: ["TrellisText", "TrellisCollectionView", "TrellisGrid", "CPrefetch"]),
        // A hint to the processor to read memory ahead (a header only).
        .systemLibrary(name: "CPrefetch", path: "Sources/CPrefetch"),
        // SQLite through the system library (Debian's libsqlite3-dev).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // External data sources: a grid bound to an SQL table keeps every sorting feature.
        // PostgreSQL through libpq: its header (Debian's libpq-dev) at build time; the library
        // itself is loaded when a connection is first opened, not linked (see its shim.h).
        .systemLibrary(name: "CPostgreSQL", path: "Sources/CPostgreSQL", providers: [.apt(["libpq-dev"])]),
        .target(name: "TrellisSQL", dependencies: ["CSQLite", "CPostgreSQL", "TrellisGrid", "TrellisText"]),
        // Workbooks (.xlsx, .ods): the ZIP packages they are, inflated through the system zlib
        // (Debian's zlib1g-dev).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "TrellisWorkbook", dependencies: ["CZlib", "TrellisGrid", "TrellisText"]),
        // One way in for every source a user names (a CSV file, standard input, a workbook's sheet,
        // an SQLite or a PostgreSQL table or query): each kind a file of its own, registered in one list.
        .target(name: "TrellisSources", dependencies: ["TrellisGrid", "TrellisSQL", "TrellisWorkbook", "TrellisText"]),
        // `trellis port`: UIKit Swift source to Trellis, the mechanical step and the rewrites of the
        // idioms that need the Objective-C runtime. Reads Swift as tokens; depends on nothing else.
        .target(name: "TrellisPort"),
        // The commit the program was built from (see `buildCommit` above).
        .target(name: "CBuildInfo", cSettings: buildCommit.map { [.define("TRELLIS_COMMIT", to: "\"\($0)\"")] } ?? []),
        .target(name: "TrellisCLI",
                dependencies: ["CBuildInfo", "TrellisPort", "TrellisText", "TrellisCollectionView", "TrellisLayouts", "TrellisGrid", "TrellisRender", "TrellisSQL",
                               "TrellisSources", "TrellisWorkbook"]),
        .executableTarget(name: "trellis", dependencies: ["TrellisCLI"]),
        .target(name: "Trellis",
                dependencies: ["TrellisText", "TrellisCollectionView", "TrellisLayouts", "TrellisGrid", "TrellisRender", "TrellisSQL",
                               "TrellisSources", "TrellisWorkbook"]),
        // For apps' own tests of their layouts (XCTest or Swift Testing): the rules UIKit enforces,
        // checked on a host; snapshots of frames as JSON and SVG with a geometric diff.
        .target(name: "TrellisTesting", dependencies: ["TrellisCollectionView", "TrellisRender", "TrellisText"]),
        // Helpers shared by the test targets and the benchmarks.
        .target(name: "TrellisTestSupport", dependencies: ["TrellisText"], path: "Sources/TrellisTestSupport"),
        .testTarget(name: "TrellisLayoutTests", dependencies: ["TrellisCollectionView", "TrellisTestSupport"]),
        .testTarget(name: "TrellisLayoutsTests",
                    dependencies: ["TrellisLayouts", "TrellisCollectionView", "TrellisGrid", "TrellisTestSupport"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "TrellisCollectionViewTests",
                    dependencies: ["TrellisCollectionView", "TrellisLayouts", "TrellisTestSupport"]),
        .testTarget(name: "TrellisTestingTests", dependencies: ["TrellisTesting", "TrellisCollectionView", "TrellisLayouts"],
                    exclude: ["__Snapshots__"]),
        .testTarget(name: "TrellisGridTests", dependencies: ["TrellisGrid", "TrellisText", "TrellisRender", "TrellisTestSupport"]),
        .testTarget(name: "TrellisSQLTests", dependencies: ["TrellisSQL", "TrellisSources", "TrellisGrid", "TrellisRender", "TrellisText", "TrellisCLI",
                                                     "TrellisTestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "TrellisWorkbookTests", dependencies: ["TrellisWorkbook", "TrellisGrid", "TrellisSources", "TrellisTestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "TrellisRenderTests", dependencies: ["TrellisRender", "TrellisText", "TrellisCollectionView", "TrellisLayouts"]),
        // UIKit-dialect samples ported by the mechanical step and built in a package of their own,
        // with the README's and the guides' snippets; the samples are text, not part of the build.
        .testTarget(name: "TrellisPortingTests", dependencies: ["TrellisPort", "TrellisTestSupport"], exclude: ["UIKit", "ObjC", "Harness", "Expected.txt"]),
        .testTarget(
            name: "TrellisCLITests",
            dependencies: ["TrellisCLI", "TrellisText", "TrellisGrid", "TrellisRender", "TrellisCollectionView", "TrellisSQL", "TrellisWorkbook",
                           "TrellisTestSupport"],
            exclude: ["Transcripts", "Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The modules a UIKit file imports — `import UIKit`, and beside it `import CoreGraphics` and
// `import QuartzCore` for the geometry and Core Animation types — where Apple's are not (on
// Apple's platforms the system's own are imported, and a target of the same name would hide them).
#if !os(macOS) && !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
package.products += [
    .library(name: "CoreGraphics", targets: ["CoreGraphics"]),
    .library(name: "QuartzCore", targets: ["QuartzCore"]),
    .library(name: "UIKit", targets: ["UIKit"]),
]
package.targets += [
    .target(name: "CoreGraphics", dependencies: ["TrellisCollectionView", "_Testing_CoreGraphics"]),
    .target(name: "QuartzCore", dependencies: ["TrellisCollectionView"]),
    .target(name: "UIKit", dependencies: ["CoreGraphics", "QuartzCore", "TrellisCollectionView", "TrellisLayouts", "_Testing_UIKit"]),
    // Swift Testing's cross-import overlays for these two names, which Linux's toolchain lacks: a
    // test that imports `Testing` beside `UIKit` or `CoreGraphics` compiles (each module is empty).
    .target(name: "_Testing_CoreGraphics"),
    .target(name: "_Testing_UIKit"),
]
// The testing kit's example: a layout written against UIKit, tested on Linux.
package.targets.first { $0.name == "TrellisTestingTests" }?.dependencies.append("UIKit")
#endif
