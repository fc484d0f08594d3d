import Testing
import TrellisLayouts

@_spi(Instrumentation) @testable import TrellisCollectionView

private func ip(_ section: Int, _ item: Int) -> IndexPath { IndexPath(item: item, section: section) }

@Suite("Scrolling")
struct ScrollingTests {
    @Test("a drag ends where the velocity decays: velocity · rate / (1 − rate), clamped to the content")
    func deceleration() {
        let (view, data) = makeCollectionView([Array(0..<300)])
        defer { withExtendedLifetime(data) {} }
        // 1 point per millisecond at 0.998 per millisecond travels 499 points.
        #expect(abs(view.projectedOffset(velocity: CGPoint(x: 0, y: 1), decelerationRate: ScrollView.DecelerationRate.normal).y - 499) < 1e-9)
        #expect(abs(view.projectedOffset(velocity: CGPoint(x: 0, y: 1), decelerationRate: ScrollView.DecelerationRate.fast).y - 99) < 1e-9)
        let end = view.endDragging(withVelocity: CGPoint(x: 0, y: 2))
        #expect(abs(end.y - 998) < 1e-9 && view.contentOffset == end)
        let far = view.endDragging(withVelocity: CGPoint(x: 0, y: 1000))
        #expect(far.y == view.contentSize.height - 480)
        let back = view.endDragging(withVelocity: CGPoint(x: 0, y: -1000))
        #expect(back.y == 0)
        #expect(view.indexPathsForVisibleItems.first == ip(0, 0))
    }

    @Test("the content offset is clamped to the content plus its insets")
    func clamping() {
        let (view, data) = makeCollectionView([Array(0..<30)])
        defer { withExtendedLifetime(data) {} }
        view.contentInset = EdgeInsets(top: 20, left: 0, bottom: 40, right: 0)
        view.layoutIfNeeded()
        #expect(view.contentOffsetRange.min == CGPoint(x: 0, y: -20))
        #expect(view.contentOffsetRange.max == CGPoint(x: 0, y: view.contentSize.height + 40 - 480))
        #expect(view.clampedOffset(CGPoint(x: 50, y: -100)) == CGPoint(x: 0, y: -20))
        #expect(view.clampedOffset(CGPoint(x: CGFloat.nan, y: 1e9)).y == view.contentOffsetRange.max.y)
    }

    @Test("paging rests on page boundaries, at most one page from the current one")
    func paging() {
        let (view, data) = makeCollectionView([Array(0..<300)])
        defer { withExtendedLifetime(data) {} }
        view.isPagingEnabled = true
        // A fast flick moves one page, however far it would have gone.
        #expect(view.endDragging(withVelocity: CGPoint(x: 0, y: 5)).y == 480)
        // A slow one rests on the page nearest where it would stop: here, the same page.
        #expect(view.endDragging(withVelocity: CGPoint(x: 0, y: 0.1)).y == 480)
        #expect(view.endDragging(withVelocity: CGPoint(x: 0, y: 0.6)).y == 960)
        #expect(view.endDragging(withVelocity: CGPoint(x: 0, y: -5)).y == 480)
        #expect(view.endDragging(withVelocity: .zero).y == 480)
    }

    @Test("a carousel comes to rest with the item nearest the projected centre centred")
    func carousel() {
        let layout = CarouselLayout(itemSize: CGSize(width: 200, height: 300), spacing: 20)
        let (view, data) = makeCollectionView([Array(0..<20)], width: 400, height: 400, layout: layout)
        defer { withExtendedLifetime(data) {} }
        for velocity in stride(from: -3.0, through: 3.0, by: 0.37) {
            let end = view.endDragging(withVelocity: CGPoint(x: velocity, y: 0))
            let centre = end.x + 200
            let items = (0..<20).compactMap { view.layoutAttributesForItem(at: ip(0, $0)) }
            #expect(items.contains { abs($0.center.x - centre) < 1e-9 }, "velocity \(velocity): no item centred at \(centre)")
        }
        // The first and the last item can be centred.
        view.setContentOffset(.zero, animated: false)
        #expect(view.endDragging(withVelocity: CGPoint(x: -5, y: 0)).x == 0)
        #expect(view.layoutAttributesForItem(at: ip(0, 0))?.center.x == 200)
    }

    @Test(
        "scrolling to an item puts it where asked",
        arguments: [
            (CollectionView.ScrollPosition.top, 550.0), (.centeredVertically, 550 + 50 - 240.0), (.bottom, 650 - 480.0), (CollectionView.ScrollPosition(), 0.0),
        ])
    func scrollToItem(position: CollectionView.ScrollPosition, expectedY: Double) {
        let (view, data) = makeCollectionView([Array(0..<300)])
        defer { withExtendedLifetime(data) {} }
        view.scrollToItem(at: ip(0, 15), at: position, animated: false)
        #expect(Double(view.contentOffset.y) == expectedY)
        #expect(view.indexPathsForVisibleItems.contains(ip(0, 15)) || position == [])
    }

    @Test("an animated scroll reports both offsets; the visible set is the one at the end")
    func animatedScroll() {
        let (view, data) = makeCollectionView([Array(0..<300)])
        defer { withExtendedLifetime(data) {} }
        view.setContentOffset(CGPoint(x: 0, y: 1000), animated: true)
        guard let transition = view.currentTransition else { Issue.record("no transition recorded"); return }
        #expect(transition.contentOffsetBefore == .zero && transition.contentOffsetAfter == CGPoint(x: 0, y: 1000))
        #expect(transition.contentOffset(at: 0.5) == CGPoint(x: 0, y: 500))
        #expect(view.indexPathsForVisibleItems.first == ip(0, 27))
    }
}

extension ScrollingTests {
    @Test("the guide's example prints what it says")
    func guideExample() {
        let (view, data) = makeCollectionView([Array(0..<100)])
        defer { withExtendedLifetime(data) {} }
        #expect(view.indexPathsForVisibleItems.count == 15)
        view.contentOffset = CGPoint(x: 0, y: 550)
        view.layoutIfNeeded()
        #expect(view.indexPathsForVisibleItems.first == ip(0, 15))
        let end = view.endDragging(withVelocity: CGPoint(x: 0, y: 2))
        #expect(end.x == 0 && end.x.sign == .plus)
        #expect(abs(end.y - 1548) < 1e-9)
    }
}
