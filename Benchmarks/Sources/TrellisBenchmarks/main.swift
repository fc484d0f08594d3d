import Foundation
import TrellisCLI
@_spi(Instrumentation) import TrellisCollectionView

// `TrellisBenchmarks trellis …` is the `trellis` command itself, run as a child process by the
// end-to-end benchmarks.
if CommandLine.arguments.dropFirst().first == "trellis" {
    var io = CommandIO(standardInput: { FileHandle.standardInput.readDataToEndOfFile() })
    io.standardOutputDescriptor = STDOUT_FILENO
    let status = TrellisCommandLine.run(Array(CommandLine.arguments.dropFirst(2)), io: &io)
    FileHandle.standardOutput.write(Data(io.stdout.utf8))
    FileHandle.standardError.write(Data(io.stderr.utf8))
    exit(status)
}

// `TrellisBenchmarks compare GROUP [RESULTS.json]`: the group's last results (or the file given)
// against its thresholds.
if CommandLine.arguments.dropFirst().first == "compare" {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    guard let group = arguments.first else {
        print("usage: TrellisBenchmarks compare GROUP [RESULTS.json]")
        exit(64)
    }
    exit(compareWithThresholds(group: group, resultsPath: arguments.dropFirst().first))
}

// Flow layout benchmarks for 1,000,000 items. Every target is a ratio to, or an absolute bound
// beside, a baseline measured in this same run.

// Timings of a build with the storage's invariant checks compiled in (a debug build) would mean
// nothing: refuse to run.
if FlowGeometry.invariantChecksEnabled {
    print("The benchmarks must run in release mode: swift run -c release --package-path Benchmarks")
    exit(1)
}

let count = 1_000_000
let width: CGFloat = 375
let sizes = variedSizes(count)
let runs = 7
var rows: [(String, String, String)] = []
var verdicts: [String] = []

@MainActor func report(_ m: Measurement, _ note: String = "") {
    rows.append((m.name, format(Measurement.seconds(m.median)), note))
}

let onlyScrolling = CommandLine.arguments.dropFirst().first == "scrolling"
let onlyGrid = CommandLine.arguments.dropFirst().first == "grid"
let onlyJSON = CommandLine.arguments.dropFirst().first == "json"
let onlySort = CommandLine.arguments.dropFirst().first == "sort"
let onlyLayouts = CommandLine.arguments.dropFirst().first == "layouts"
let onlySQL = CommandLine.arguments.dropFirst().first == "sql"
let onlyComparators = CommandLine.arguments.dropFirst().first == "comparators"
let onlyInteraction = CommandLine.arguments.dropFirst().first == "interaction"
let onlyFuzz = CommandLine.arguments.dropFirst().first == "fuzz"
let onlyStreaming = CommandLine.arguments.dropFirst().first == "streaming"
let onlyScale = CommandLine.arguments.dropFirst().first == "scale"
let onlyExternal = CommandLine.arguments.dropFirst().first == "external"
let onlySQLExport = CommandLine.arguments.dropFirst().first == "sql-export"
let onlyLongCells = CommandLine.arguments.dropFirst().first == "long-cells"
let onlyStructure = CommandLine.arguments.dropFirst().first == "structure"
let onlyWorkbook = CommandLine.arguments.dropFirst().first == "workbook"
let onlyViewer = CommandLine.arguments.dropFirst().first == "viewer"
if onlyViewer {
    // `viewer [ROWS]`: every key of trellis view at 1M rows in tmux, and saving an edit.
    let result = viewerBenchmarks(runs: 5, count: CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 1_000_000)
    rows += result.rows
    verdicts += result.verdicts
} else if onlyWorkbook {
    // `workbook [ROWS]`: a 10-column .xlsx sheet read and sorted, 1M rows by default, beside
    // python-calamine and openpyxl reading it.
    let result = workbookBenchmarks(runs: 3, count: CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 1_000_000)
    rows += result.rows
    verdicts += result.verdicts
} else if onlyStructure {
    // `structure [ROWS]`: subtotal groups, list keys and a second text workload, 1M rows by default.
    let result = structureBenchmarks(runs: 9, count: CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 1_000_000)
    rows += result.rows
    verdicts += result.verdicts
} else if onlyLongCells {
    // `long-cells [MB…]`: one long cell (64 and 256 MB by default) in the column sorted by.
    let sizes = CommandLine.arguments.dropFirst(2).compactMap { Int($0) }
    let result = longCellBenchmarks(runs: 3, cellMB: sizes.isEmpty ? [64, 256] : sizes)
    rows += result.rows
    verdicts += result.verdicts
} else if onlySQLExport {
    // `sql-export [ROWS…]`: sorted against unsorted database exports at 10k, 100k and 1M rows.
    let counts = CommandLine.arguments.dropFirst(2).compactMap { Int($0) }
    let result = sqlExportBenchmarks(runs: 3, sizes: counts.isEmpty ? [10_000, 100_000, 1_000_000] : counts)
    rows += result.rows
    verdicts += result.verdicts
} else if onlyExternal {
    // `external [ROWS] [MEMORY]`: trellis sort in parts of a 10M-row file under 256M by default.
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    let result = externalSortBenchmarks(
        rows: arguments.first.flatMap { Int($0) } ?? 10_000_000,
        memory: arguments.dropFirst().first ?? "256M", runs: 3)
    rows += result.rows
    verdicts += result.verdicts
} else if onlyScale {
    // `scale [COUNT…]`: trellis sort (beside polars) and trellis layout at each size.
    let counts = CommandLine.arguments.dropFirst(2).compactMap { Int($0) }
    let result = scaleBenchmarks(runs: 3, sizes: counts.isEmpty ? [10_000, 100_000, 1_000_000, 10_000_000] : counts)
    rows += result.rows
    verdicts += result.verdicts
} else if onlyStreaming {
    // `streaming [COUNT…]`: trellis layout of every spec type at 1M and 10M items by default.
    let counts = CommandLine.arguments.dropFirst(2).compactMap { Int($0) }
    let result = streamingBenchmarks(runs: 3, counts: counts.isEmpty ? [1_000_000, 10_000_000] : counts)
    rows += result.rows
    verdicts += result.verdicts
} else if onlyFuzz {
    // Adversarial specs of every layout type through `trellis layout`, in release: each must end
    // in status 0 or 65. `fuzz N` runs N seeds per type (2,000 by default).
    let perType = CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 2_000
    var failures = 0
    for type in AdversarialLayoutSpecs.types {
        var statuses: [Int32: Int] = [:]
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for seed in 0..<UInt64(perType) {
                let spec = AdversarialLayoutSpecs.spec(type: type, seed: seed, maximumDepth: 500)
                var io = CommandIO(standardInput: { Data(spec.utf8) })
                let status = TrellisCommandLine.run(["layout", "-", "--rect", "0,0,375,800"], io: &io)
                statuses[status, default: 0] += 1
                if status != 0 && status != 65 { failures += 1; print("seed \(seed) of \(type): status \(status)") }
            }
        }
        rows.append(
            (
                "Adversarial \(type) specs, \(perType) seeds", format(Measurement.seconds(elapsed) / Double(perType)),
                "per spec; " + statuses.sorted { $0.key < $1.key }.map { "status \($0.key): \($0.value)" }.joined(separator: ", ")
            ))
    }
    verdicts.append(failures == 0 ? "adversarial specs: every one ended in status 0 or 65" : "adversarial specs: \(failures) FAILED")
} else if onlyInteraction {
    rows += interactionBenchmarks(runs: runs, sizes: sizes)
} else if onlyComparators {
    rows += comparatorBenchmarks(runs: 5)
} else if onlySQL {
    rows += sqlBenchmarks(runs: 5)
} else if onlyLayouts {
    rows += layoutsBenchmarks(runs: runs)
} else if onlySort {
    let sizes = CommandLine.arguments.dropFirst(2).compactMap { Int($0) }
    rows += sortCommandBenchmarks(runs: 5, sizes: sizes.isEmpty ? [100_000, 1_000_000, 10_000_000] : sizes)
} else if onlyGrid {
    rows += gridBenchmarks(runs: runs)
} else if onlyJSON {
    rows += jsonBenchmarks(runs: runs, sizes: sizes)
} else {
    if !onlyScrolling {
        // Memory: what the layout keeps for 1M varied items.
        let before = residentBytes()
        let memoryLayout = CollectionViewFlowLayout()
        let memoryHost = StaticLayoutHost(
            layout: memoryLayout, itemCounts: [count],
            bounds: CGRect(x: 0, y: 0, width: width, height: 800),
            delegate: SizesDelegate(sizes, bulk: true))
        memoryHost.layoutIfNeeded()
        let after = residentBytes()
        let perItemHeap = Double(after - before) / Double(count)
        let perItemStorage = Double(memoryLayout.flowGeometry.storageBytes) / Double(count)
        rows.append(
            (
                "FlowLayout memory, 1M varied items", String(format: "%.1f B/item", perItemHeap),
                String(format: "resident growth; geometry storage %.1f B/item (target < 64)", perItemStorage)
            ))
        verdicts.append(
            String(
                format: "memory, 1M varied: %.1f bytes per item — %@", perItemHeap,
                perItemHeap < 64 ? "meets < 64" : "MISSES < 64"))
        blackHole(memoryHost)
        memoryHost.itemCounts = []
        memoryHost.layoutIfNeeded()

        // The limit: the same frames from one plain loop into a preallocated array.
        var baselineFrames = [CGRect](repeating: .zero, count: count)
        let baseline = measure("Baseline: flow frames of 1M varied items into a preallocated array", runs: runs) {
            baselineFlowFrames(sizes, into: &baselineFrames, available: width, spacing: 10, lineSpacing: 10, scale: 2)
            blackHole(baselineFrames)
        }
        report(baseline, "limit")
        let baseSeconds = Measurement.seconds(baseline.median)

        func makeHost(bulk: Bool) -> (StaticLayoutHost, CollectionViewFlowLayout) {
            let layout = CollectionViewFlowLayout()
            let host = StaticLayoutHost(
                layout: layout, itemCounts: [count],
                bounds: CGRect(x: 0, y: 0, width: width, height: 800),
                delegate: SizesDelegate(sizes, bulk: bulk))
            return (host, layout)
        }

        // The builder alone: the pure flow math with its storage, without the layout class.
        let builderOnly = measure("FlowGeometry.Builder 1M varied", runs: runs) {
            var b = FlowGeometry.Builder(scrollDirection: .vertical, crossSize: width, displayScale: 2, reservingItems: count)
            b.appendSection(FlowSectionMetrics(), itemSizes: sizes)
            blackHole(b.finish())
        }
        report(builderOnly, String(format: "%.2f× baseline", Measurement.seconds(builderOnly.median) / baseSeconds))

        // FlowLayout prepare, sizes given per section (the bulk delegate method).
        let (bulkHost, bulkLayout) = makeHost(bulk: true)
        let prepareBulk = measure("FlowLayout prepare 1M varied items (sizesForItemsInSection)", runs: runs) {
            bulkLayout.invalidateLayout()
            bulkHost.layoutIfNeeded()
        }
        let bulkRatio = Measurement.seconds(prepareBulk.median) / baseSeconds
        report(prepareBulk, String(format: "%.2f× baseline (target ≤ 2×)", bulkRatio))
        verdicts.append(
            String(
                format: "prepare, 1M varied (bulk sizes): %.2f× baseline — %@", bulkRatio,
                bulkRatio <= 2 ? "meets ≤ 2×" : "MISSES ≤ 2×"))

        // The frames must be the baseline's frames, or the comparison means nothing.
        let mismatches = (0..<count).filter { bulkLayout.flowGeometry.itemFrame(section: 0, item: $0) != baselineFrames[$0] }.count
        verdicts.append("frames identical to the baseline's: \(mismatches == 0 ? "yes" : "NO, \(mismatches) differ")")

        // FlowLayout prepare, sizes asked item by item (UIKit's sizeForItemAt).
        let (itemHost, itemLayout) = makeHost(bulk: false)
        let prepareItems = measure("FlowLayout prepare 1M varied items (sizeForItemAt)", runs: runs) {
            itemLayout.invalidateLayout()
            itemHost.layoutIfNeeded()
        }
        let itemRatio = Measurement.seconds(prepareItems.median) / baseSeconds
        report(prepareItems, String(format: "%.2f× baseline", itemRatio))
        verdicts.append(
            String(
                format: "prepare, 1M varied (sizeForItemAt): %.2f× baseline — %@", itemRatio,
                itemRatio <= 2 ? "meets ≤ 2×" : "over 2× (one IndexPath per item)"))

        // Uniform items: no per-item work at all.
        let uniformLayout = CollectionViewFlowLayout()
        uniformLayout.itemSize = CGSize(width: 100, height: 80)
        let uniformHost = StaticLayoutHost(
            layout: uniformLayout, itemCounts: [count],
            bounds: CGRect(x: 0, y: 0, width: width, height: 800))
        let prepareUniform = measure("FlowLayout prepare 1M uniform items", runs: runs) {
            uniformLayout.invalidateLayout()
            uniformHost.layoutIfNeeded()
        }
        report(prepareUniform, String(format: "%.4f× baseline", Measurement.seconds(prepareUniform.median) / baseSeconds))

        // Viewport queries: 375×800 rects anywhere in the content.
        @MainActor func queryBenchmark(_ name: String, _ host: StaticLayoutHost, queries: Int = 20_000) -> Double {
            host.layoutIfNeeded()
            let height = host.contentSize.height
            var state: UInt64 = 7
            let origins: [CGFloat] = (0..<queries).map { _ in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return CGFloat(Double(state >> 11) / Double(1 << 53)) * (height - 800)
            }
            var returned = 0
            let m = measure(name, runs: runs) {
                for y in origins {
                    returned &+= host.layout.layoutAttributesForElements(in: CGRect(x: 0, y: y, width: width, height: 800))!.count
                }
            }
            blackHole(returned)
            let perQuery = Measurement.seconds(m.median) / Double(queries)
            rows.append((name, format(perQuery), "per query, \(returned / queries / runs) elements each (target < 2 µs)"))
            return perQuery
        }
        let variedQuery = queryBenchmark("FlowLayout layoutAttributesForElements(in:) 375×800, 1M varied", bulkHost)
        verdicts.append(
            String(
                format: "viewport query, 1M varied: %@ — %@", format(variedQuery),
                variedQuery < 2e-6 ? "meets < 2 µs" : "MISSES < 2 µs"))
        let uniformQuery = queryBenchmark("FlowLayout layoutAttributesForElements(in:) 375×800, 1M uniform", uniformHost)
        verdicts.append(
            String(
                format: "viewport query, 1M uniform: %@ — %@", format(uniformQuery),
                uniformQuery < 2e-6 ? "meets < 2 µs" : "MISSES < 2 µs"))

        // A single item, anywhere.
        let itemQueries = 200_000
        var sink = 0
        let single = measure("FlowLayout layoutAttributesForItem(at:) 1M varied", runs: runs) {
            for i in 0..<itemQueries {
                sink &+= Int(bulkLayout.layoutAttributesForItem(at: IndexPath(item: (i &* 7919) % count, section: 0))!.frame.minX)
            }
        }
        blackHole(sink)
        rows.append((single.name, format(Measurement.seconds(single.median) / Double(itemQueries)), "per call, IndexPath included"))

        // Self-sizing: one measured size in a 1M-item section, against a full prepare().
        let sizingLayout = CollectionViewFlowLayout()
        sizingLayout.estimatedItemSize = CGSize(width: 100, height: 80)
        let sizingHost = StaticLayoutHost(
            layout: sizingLayout, itemCounts: [count],
            bounds: CGRect(x: 0, y: 0, width: width, height: 800))
        sizingHost.layoutIfNeeded()
        func reportSize(item: Int, height: CGFloat) {
            let original = sizingLayout.layoutAttributesForItem(at: IndexPath(item: item, section: 0))!
            let preferred = original.copy() as! CollectionViewLayoutAttributes
            preferred.size = CGSize(width: 100, height: height)
            let context = sizingLayout.invalidationContext(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original)
            sizingLayout.invalidateLayout(with: context)
            sizingHost.layoutIfNeeded()
        }
        reportSize(item: 0, height: 90)  // the first measurement turns the section into per-item storage
        let fullSizing = measure("FlowLayout prepare 1M items with measured sizes (full)", runs: runs) {
            sizingLayout.invalidateLayout()
            sizingHost.layoutIfNeeded()
        }
        report(fullSizing, "the baseline for one size change")
        let changes = 20_000
        var changeState: UInt64 = 3
        let oneChange = measure("FlowLayout one measured size in a 1M-item section (in place)", runs: runs) {
            for _ in 0..<changes {
                changeState = changeState &* 6364136223846793005 &+ 1442695040888963407
                let item = Int((changeState >> 33) % UInt64(count))
                reportSize(item: item, height: CGFloat(40 + (changeState >> 20) % 80))
            }
        }
        let perChange = Measurement.seconds(oneChange.median) / Double(changes)
        let changeRatio = perChange / Measurement.seconds(fullSizing.median)
        rows.append(
            (
                oneChange.name, format(perChange),
                String(
                    format: "per change; %.6f× a full prepare (%d full recomputations)",
                    changeRatio, sizingLayout.geometryComputationCount)
            ))
        verdicts.append(
            String(
                format: "one size change, 1M items: %@ = %.6f× a full prepare — %@", format(perChange), changeRatio,
                changeRatio < 0.01 ? "far below a full prepare" : "NOT far below a full prepare"))

        // A 1,000-operation batch on a 1M-item section, against the index mapping alone.
        let (batch, newCount) = randomBatch(count: count, operations: 1_000)
        var mappingResult: UpdateMapping?
        let mappingOnly = measure("BatchUpdate.validated 1,000 operations on 1M items (index mapping alone)", runs: runs) {
            mappingResult = try! batch.validated(oldCounts: [count], newCounts: [newCount])
        }
        report(mappingOnly, "baseline")
        let mapping = mappingResult!
        let newSizes = (0..<newCount).map { i in
            mapping.oldIndexPath(forNew: IndexPath(item: i, section: 0)).map { sizes[$0.item] } ?? CGSize(width: 80, height: 60)
        }
        var batchRuns: [Duration] = []
        var transitionElements = 0
        for _ in 0..<runs {
            let source = SizesDataSource(sizes)
            let view = makeCollectionView(source)
            view.contentOffset = CGPoint(x: 0, y: 4_000_000)
            view.layoutIfNeeded()
            source.sizes = newSizes
            let clock = ContinuousClock()
            batchRuns.append(
                clock.measure {
                    let transition = try! view.applyBatchUpdates {
                        view.deleteItems(at: batch.deletedItems)
                        view.insertItems(at: batch.insertedItems)
                        for move in batch.movedItems { view.moveItem(at: move.from, to: move.to) }
                    }
                    transitionElements = transition.elements.count
                })
            withExtendedLifetime(source) {}
        }
        let batchMeasure = Measurement(name: "CollectionView performBatchUpdates 1,000 operations on 1M items", runs: batchRuns)
        let batchRatio = Measurement.seconds(batchMeasure.median) / Measurement.seconds(mappingOnly.median)
        report(
            batchMeasure,
            String(
                format: "%.2f× the mapping (target < 10×); validated, mapped, laid out, %d transitions",
                batchRatio, transitionElements))
        verdicts.append(
            String(
                format: "batch of 1,000 on 1M items: %.2f× the index mapping — %@", batchRatio,
                batchRatio < 10 ? "meets < 10×" : "MISSES < 10×"))

    }

    // Scrolling through 1M items page by page (run alone with the argument `scrolling`).
    let scrollSource = SizesDataSource(sizes)
    let scrollView = makeCollectionView(scrollSource)
    let pages = 5_000
    let queriesBefore = scrollView.layoutQueryCount
    let prepareBefore = scrollView.prepareCount
    var firstPage = 0
    let scrolling = measure("CollectionView scrolling page by page through 1M items", runs: runs) {
        for page in firstPage..<(firstPage + pages) {
            scrollView.contentOffset = CGPoint(x: 0, y: CGFloat(page) * 800)
            scrollView.layoutIfNeeded()
        }
        firstPage += pages
    }
    let perPage = Measurement.seconds(scrolling.median) / Double(pages)
    let queriesPerPage = Double(scrollView.layoutQueryCount - queriesBefore) / Double(pages * runs)
    rows.append(
        (
            scrolling.name, format(perPage),
            String(
                format: "per page (target < 20 µs); %.2f layout queries and %d prepares per page",
                queriesPerPage, scrollView.prepareCount - prepareBefore)
        ))
    verdicts.append(
        String(
            format: "scrolling a page: %@ — %@; %.2f rect queries per page, %d views created for %d pages",
            format(perPage), perPage < 20e-6 ? "meets < 20 µs" : "MISSES < 20 µs", queriesPerPage,
            scrollView.createdViewCount, pages * runs))
    withExtendedLifetime(scrollSource) {}

    if !onlyScrolling {
        rows += jsonBenchmarks(runs: runs, sizes: sizes)
        rows += gridBenchmarks(runs: runs)
    }
}

// The report.
let nameWidth = rows.map(\.0.count).max()!
print("Trellis benchmarks — \(ProcessInfo.processInfo.processorCount) cores, median of \(runs) runs")
for (name, value, note) in rows {
    print(name.padding(toLength: nameWidth, withPad: " ", startingAt: 0), value.padding(toLength: 12, withPad: " ", startingAt: 0), note)
}
print("")
for verdict in verdicts { print("• " + verdict) }

// The run kept as data, beside the group's thresholds (`compare GROUP` checks them).
let group = CommandLine.arguments.dropFirst().first ?? "flow"
do {
    try RunResults(group: group, arguments: Array(CommandLine.arguments.dropFirst()), rows: rows, verdicts: verdicts).write()
    print("results: \(RunResults.resultsFile(group).path)")
} catch {
    print("the results could not be written: \(error)")
}
