import Foundation
@_spi(Instrumentation) import TrellisCollectionView

/// A collection view of `count` items: the source's varied sizes, or 100-point items when
/// `source` is `nil`. The data source it uses is returned: the view holds it weakly.
func interactionView(
    _ source: SizesDataSource?, count: Int,
    layout: CollectionViewFlowLayout
) -> (CollectionView, SizesDataSource) {
    let view = CollectionView(frame: CGRect(x: 0, y: 0, width: 375, height: 800), collectionViewLayout: layout)
    view.register(CollectionViewCell.self, forCellWithReuseIdentifier: "cell")
    let data = source ?? SizesDataSource(Array(repeating: CGSize(width: 100, height: 100), count: count))
    view.dataSource = data
    view.delegate = source
    view.layoutIfNeeded()
    return (view, data)
}

/// Interactive movement, interactive transitions and right to left, each on a million items,
/// against the work it is measured beside in the same run.
@MainActor
func interactionBenchmarks(runs: Int, sizes: [CGSize]) -> [(String, String, String)] {
    var rows: [(String, String, String)] = []
    let count = sizes.count

    // 1. A drag through 1M varied items: following the finger, and taking new places, against a
    // full prepare of the same layout.
    let source = SizesDataSource(sizes)
    let flow = CollectionViewFlowLayout()
    let (view, _) = interactionView(source, count: count, layout: flow)
    let full = measure("Flow: invalidate and prepare 1M varied items", runs: runs) {
        view.collectionViewLayout.invalidateLayout()
        view.layoutIfNeeded()
    }
    let fullSeconds = Measurement.seconds(full.median)
    rows.append((full.name, format(fullSeconds), "the baseline of the two rows below"))
    let item0 = view.layoutAttributesForItem(at: IndexPath(item: 0, section: 0))!.frame
    _ = view.beginInteractiveMovementForItem(at: IndexPath(item: 0, section: 0))
    let follows = 1_000
    let follow = measure("Drag: follow the finger within the item's place, 1M varied items", runs: runs) {
        for k in 0..<follows {
            view.updateInteractiveMovementTargetPosition(CGPoint(x: item0.minX + 1 + CGFloat(k % 7), y: item0.midY + CGFloat(k % 5)))
        }
    }
    let followSeconds = Measurement.seconds(follow.median) / Double(follows)
    rows.append((follow.name, format(followSeconds), String(format: "per update; %.5f× a full prepare", followSeconds / fullSeconds)))
    let item1 = view.layoutAttributesForItem(at: IndexPath(item: 1, section: 0))!.frame
    let moves = 10
    let move = measure("Drag: take a new place (a one-move batch), 1M varied items", runs: runs) {
        for k in 0..<moves {
            let target = k % 2 == 0 ? item1 : item0
            view.updateInteractiveMovementTargetPosition(CGPoint(x: target.midX, y: target.midY))
            view.completeTransition()
        }
    }
    let moveSeconds = Measurement.seconds(move.median) / Double(moves)
    rows.append((move.name, format(moveSeconds), String(format: "per update; %.2f× a full prepare", moveSeconds / fullSeconds)))
    view.cancelInteractiveMovement()

    // The same with one size for every item (the flow keeps no per-item geometry).
    let uniformFlow = CollectionViewFlowLayout()
    uniformFlow.itemSize = CGSize(width: 100, height: 100)
    let (uniformView, uniformSource) = interactionView(nil, count: count, layout: uniformFlow)
    let uniformFull = measure("Flow: invalidate and prepare 1M equal items", runs: runs) {
        uniformView.collectionViewLayout.invalidateLayout()
        uniformView.layoutIfNeeded()
    }
    _ = uniformView.beginInteractiveMovementForItem(at: IndexPath(item: 0, section: 0))
    let uniformMove = measure("Drag: take a new place, 1M equal items", runs: runs) {
        for k in 0..<moves {
            uniformView.updateInteractiveMovementTargetPosition(CGPoint(x: k % 2 == 0 ? 160 : 50, y: 50))
            uniformView.completeTransition()
        }
    }
    let uniformFullSeconds = Measurement.seconds(uniformFull.median)
    let uniformMoveSeconds = Measurement.seconds(uniformMove.median) / Double(moves)
    rows.append((uniformFull.name, format(uniformFullSeconds), ""))
    rows.append(
        (
            uniformMove.name, format(uniformMoveSeconds),
            String(format: "per update; %.2f× a full prepare", uniformMoveSeconds / uniformFullSeconds)
        ))
    uniformView.cancelInteractiveMovement()

    // 2. The transition layout's rect query, halfway from a grid to a list of 1M items, against
    // the two layouts' own queries of the same rects.
    let grid = CollectionViewFlowLayout()
    grid.itemSize = CGSize(width: 100, height: 100)
    let list = CollectionViewFlowLayout()
    list.itemSize = CGSize(width: 375, height: 60)
    let (pinchView, pinchSource) = interactionView(nil, count: count, layout: grid)
    let transition = pinchView.startInteractiveTransition(to: list)
    transition.transitionProgress = 0.5
    pinchView.layoutIfNeeded()
    let (transitionRow, transitionSeconds) = viewportQuery(
        "Transition layout halfway, grid → list, 1M items", transition,
        width: 375, runs: runs)
    let (gridRow, gridSeconds) = viewportQuery("  the grid's own query", grid, width: 375, runs: runs)
    let (listRow, listSeconds) = viewportQuery("  the list's own query", list, width: 375, runs: runs)
    rows.append(
        (
            transitionRow.0, transitionRow.1,
            transitionRow.2.replacingOccurrences(of: "target < 2 µs", with: "target < 4 µs")
                + String(format: "; %.2f× the two layouts' queries", transitionSeconds / (gridSeconds + listSeconds))
        ))
    rows += [gridRow, listRow]
    pinchView.cancelInteractiveTransition()

    // 3. Right to left: scrolling a collection view of 1M varied items page by page, mirrored,
    // against the same scroll left to right — the two alternating, run after run, so that both
    // see the same machine.
    let ltrSource = SizesDataSource(sizes), rtlSource = SizesDataSource(sizes)
    let (ltrView, _) = interactionView(ltrSource, count: count, layout: CollectionViewFlowLayout())
    let (rtlView, _) = interactionView(rtlSource, count: count, layout: CollectionViewFlowLayout())
    rtlView.semanticContentAttribute = .forceRightToLeft
    rtlView.layoutIfNeeded()
    let pages = 2_000
    var firstPage = 0
    var ltrTimes: [Duration] = [], rtlTimes: [Duration] = []
    let clock = ContinuousClock()
    for _ in 0..<(2 * runs + 1) {
        for (view, times) in [(ltrView, 0), (rtlView, 1)] {
            let elapsed = clock.measure {
                for page in firstPage..<(firstPage + pages) {
                    view.contentOffset = CGPoint(x: 0, y: CGFloat(page) * 800)
                    view.layoutIfNeeded()
                }
            }
            if times == 0 { ltrTimes.append(elapsed) } else { rtlTimes.append(elapsed) }
        }
        firstPage += pages
    }
    let ltrPerPage = Measurement.seconds(Measurement(name: "", runs: ltrTimes).median) / Double(pages)
    let rtlPerPage = Measurement.seconds(Measurement(name: "", runs: rtlTimes).median) / Double(pages)
    rows.append(("Scrolling 1M varied items page by page, left to right", format(ltrPerPage), "per page"))
    rows.append(
        (
            "Scrolling 1M varied items page by page, right to left", format(rtlPerPage),
            String(format: "per page; %.2f× left to right (target ≤ 1.1×)", rtlPerPage / ltrPerPage)
        ))
    withExtendedLifetime((ltrSource, rtlSource)) {}
    withExtendedLifetime((source, uniformSource, pinchSource)) {}
    return rows
}
