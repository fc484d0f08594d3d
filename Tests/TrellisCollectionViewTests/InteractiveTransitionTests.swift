import Foundation
import Testing

@_spi(Instrumentation) @testable import TrellisCollectionView

/// A flow layout that logs the transition calls it receives, into a shared log.
final class TransitionLoggingLayout: CollectionViewFlowLayout {
    let name: String
    let log: Box
    final class Box { var lines: [String] = [] }

    init(_ name: String, log: Box, itemSize: CGSize) {
        self.name = name
        self.log = log
        super.init()
        self.itemSize = itemSize
    }
    required init?(coder: NSCoder) { fatalError() }

    override func prepareForTransition(from oldLayout: CollectionViewLayout) {
        // (A layout reads its collection view here: DisplaySwitcher's sizes its items by it.)
        log.lines.append(
            "\(name).prepareForTransition(from: \((oldLayout as? TransitionLoggingLayout)?.name ?? "?"))"
                + (collectionView == nil ? " detached" : ""))
    }
    override func prepareForTransition(to newLayout: CollectionViewLayout) {
        log.lines.append("\(name).prepareForTransition(to: \((newLayout as? TransitionLoggingLayout)?.name ?? "?"))")
    }
    override func finalizeLayoutTransition() { log.lines.append("\(name).finalizeLayoutTransition()") }
    override func targetContentOffset(forProposedContentOffset proposedContentOffset: CGPoint) -> CGPoint {
        log.lines.append("\(name).targetContentOffset(\(proposedContentOffset.y))")
        return proposedContentOffset
    }
}

final class TransitionDelegate: CollectionViewDelegate {
    var asked = 0
    var custom: ((CollectionViewLayout, CollectionViewLayout) -> CollectionViewTransitionLayout)?
    func collectionView(
        _ collectionView: CollectionView, transitionLayoutForOldLayout fromLayout: CollectionViewLayout,
        newLayout toLayout: CollectionViewLayout
    ) -> CollectionViewTransitionLayout {
        asked += 1
        return custom?(fromLayout, toLayout) ?? CollectionViewTransitionLayout(currentLayout: fromLayout, nextLayout: toLayout)
    }
}

/// A transition layout that lifts every element by the finger's travel, recorded as a key.
final class LiftingTransitionLayout: CollectionViewTransitionLayout {
    override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        super.layoutAttributesForElements(in: rect)?.map { attributes in
            attributes.frame.origin.y -= value(forAnimatedKey: "lift")
            return attributes
        }
    }
}

@Suite("Interactive layout transitions")
struct InteractiveTransitionTests {
    /// Twelve items: a grid of 100-point squares (three a line at 0, 110, 220) and a list of
    /// 320 × 50 rows (10 apart).
    func make() -> (CollectionView, ItemsDataSource, TransitionLoggingLayout, TransitionLoggingLayout, TransitionLoggingLayout.Box) {
        let log = TransitionLoggingLayout.Box()
        let grid = TransitionLoggingLayout("grid", log: log, itemSize: CGSize(width: 100, height: 100))
        let list = TransitionLoggingLayout("list", log: log, itemSize: CGSize(width: 320, height: 50))
        let (view, data) = makeCollectionView([Array(0..<12)], layout: grid)
        return (view, data, grid, list, log)
    }

    func frame(_ view: CollectionView, _ item: Int) -> CGRect? {
        view.cellForItem(at: IndexPath(item: item, section: 0))?.frame
    }

    @Test("progress 0, 0.5 and 1: every visible element where the grid puts it, halfway, where the list puts it")
    func progress() throws {
        let (view, data, grid, list, log) = make()
        defer { withExtendedLifetime(data) {} }
        let transition = view.startInteractiveTransition(to: list)
        #expect(view.collectionViewLayout === transition)
        #expect(transition.currentLayout === grid && transition.nextLayout === list)
        #expect(
            log.lines == ["grid.prepareForTransition(to: list)", "list.prepareForTransition(from: grid)"],
            "the new layout hears of the old one attached, as setCollectionViewLayout tells it")
        #expect(frame(view, 4) == CGRect(x: 110, y: 110, width: 100, height: 100))
        #expect(view.contentSize == CGSize(width: 320, height: 430))
        transition.transitionProgress = 0.5
        view.layoutIfNeeded()
        // Item 4: grid (110, 110, 100, 100), list (0, 240, 320, 50).
        #expect(frame(view, 4) == CGRect(x: 55, y: 175, width: 210, height: 75))
        #expect(view.contentSize == CGSize(width: 320, height: (430 + 710) / 2))
        transition.transitionProgress = 1
        view.layoutIfNeeded()
        #expect(frame(view, 4) == CGRect(x: 0, y: 240, width: 320, height: 50))
        #expect(frame(view, 8) == nil, "item 8 of the list (y 480) is below the viewport")
        #expect(view.cellForItem(at: IndexPath(item: 4, section: 0))?.appliedLayoutAttributes?.alpha == 1)
    }

    @Test("an element only one layout places in the rect is mixed with the other's; one only the other layout has fades")
    func onlyInOne() throws {
        let (view, data, _, list, _) = make()
        defer { withExtendedLifetime(data) {} }
        list.headerReferenceSize = CGSize(width: 0, height: 40)  // the list has a header, the grid none
        let transition = view.startInteractiveTransition(to: list)
        transition.transitionProgress = 0.25
        view.layoutIfNeeded()
        // Item 11: the grid's (220, 330, 100, 100), the list's (0, 700, 320, 50) (below the header).
        let item11 = try #require(transition.layoutAttributesForItem(at: IndexPath(item: 11, section: 0)))
        #expect(item11.frame == CGRect(x: 165, y: 422.5, width: 155, height: 87.5))
        #expect(transition.layoutAttributesForItem(at: IndexPath(item: 12, section: 0)) == nil)
        let header = try #require(
            transition.layoutAttributesForSupplementaryView(
                ofKind: CollectionView.elementKindSectionHeader, at: IndexPath(item: 0, section: 0)))
        #expect(header.frame == CGRect(x: 0, y: 0, width: 320, height: 40) && header.alpha == 0.25)
        // A rect query holds the header and every item whose mixed frame meets the rect, and no other.
        let rect = CGRect(x: 0, y: 300, width: 320, height: 100)
        let elements = transition.layoutAttributesForElements(in: rect) ?? []
        let expected = (0..<12).filter { item in
            transition.layoutAttributesForItem(at: IndexPath(item: item, section: 0))!.frame.intersects(rect)
        }
        #expect(elements.map(\.indexPath.item).sorted() == expected && !expected.isEmpty)
    }

    @Test("finish: the new layout is installed, its target offset asked, both finalized, completion (true, true)")
    func finish() throws {
        let (view, data, grid, list, log) = make()
        defer { withExtendedLifetime(data) {} }
        var completions: [[Bool]] = []
        let transition = view.startInteractiveTransition(to: list) { completions.append([$0, $1]) }
        transition.transitionProgress = 0.7
        view.layoutIfNeeded()
        let halfway = try #require(frame(view, 1))
        view.finishInteractiveTransition()
        #expect(view.collectionViewLayout === list)
        #expect(list.collectionView === view && grid.collectionView == nil && transition.collectionView == nil)
        #expect(completions == [[true, true]])
        #expect(Array(log.lines.suffix(3)) == ["list.targetContentOffset(0.0)", "grid.finalizeLayoutTransition()", "list.finalizeLayoutTransition()"])
        #expect(frame(view, 1) == CGRect(x: 0, y: 60, width: 320, height: 50))
        // The rest of the way is the current transition: from where the element was.
        let element = try #require(view.currentTransition?.element(after: ElementID(category: .cell, kind: nil, section: 0, item: 1)))
        #expect(element.from.frame == halfway && element.to.frame == CGRect(x: 0, y: 60, width: 320, height: 50))
    }

    @Test("cancel: the old layout is back, completion (false, true); a second start cancels the first")
    func cancel() {
        let (view, data, grid, list, _) = make()
        defer { withExtendedLifetime(data) {} }
        var completions: [[Bool]] = []
        let first = view.startInteractiveTransition(to: list) { completions.append([$0, $1]) }
        first.transitionProgress = 0.4
        view.cancelInteractiveTransition()
        #expect(view.collectionViewLayout === grid && completions == [[false, true]])
        #expect(frame(view, 4) == CGRect(x: 110, y: 110, width: 100, height: 100))
        _ = view.startInteractiveTransition(to: list) { completions.append([$0, $1]) }
        _ = view.startInteractiveTransition(to: list) { completions.append([$0, $1]) }
        #expect(completions == [[false, true], [false, true]])
        view.finishInteractiveTransition()
        view.finishInteractiveTransition()  // nothing under way: nothing happens
        view.cancelInteractiveTransition()
        #expect(completions == [[false, true], [false, true], [true, true]] && view.collectionViewLayout === list)
    }

    @Test("the delegate's transition layout is used, with values of its own; progress that is not finite is ignored")
    func customTransitionLayout() throws {
        let (view, data, _, list, _) = make()
        defer { withExtendedLifetime(data) {} }
        let delegate = TransitionDelegate()
        delegate.custom = { LiftingTransitionLayout(currentLayout: $0, nextLayout: $1) }
        view.delegate = delegate
        let transition = view.startInteractiveTransition(to: list)
        #expect(transition is LiftingTransitionLayout && delegate.asked == 1)
        transition.updateValue(30, forAnimatedKey: "lift")
        #expect(transition.value(forAnimatedKey: "lift") == 30 && transition.value(forAnimatedKey: "other") == 0)
        transition.transitionProgress = CGFloat.nan
        #expect(transition.transitionProgress == 0)
        transition.invalidateLayout()
        view.layoutIfNeeded()
        #expect(frame(view, 4) == CGRect(x: 110, y: 80, width: 100, height: 100))
    }

    @Test("a batch update during the transition reaches both layouts")
    func updateDuringTransition() {
        let (view, data, _, list, _) = make()
        let transition = view.startInteractiveTransition(to: list)
        transition.transitionProgress = 1
        data.sections[0].insert(99, at: 0)
        view.insertItems(at: [IndexPath(item: 0, section: 0)])
        view.layoutIfNeeded()
        #expect(view.numberOfItems(inSection: 0) == 13)
        #expect(transition.layoutAttributesForItem(at: IndexPath(item: 12, section: 0))?.frame == CGRect(x: 0, y: 720, width: 320, height: 50))
        view.finishInteractiveTransition()
        #expect(abs(view.contentSize.height - 770) < 1e-9, "\(view.contentSize.height)")
    }
}
