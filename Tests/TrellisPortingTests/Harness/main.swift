import Trellis

// Runs every ported sample and prints what it reported, one `key = value` line each. The
// animation samples read the collection view's transition here, where UIKit would animate.

masonrySample()
tileSample()
coverFlowSample()
leadingAlignedSample()
stretchyHeaderSample()
settingsSample()
fruitSample()

do {
    let inbox = InboxController()
    inbox.collectionView.layoutIfNeeded()
    var finished: [Bool] = []
    inbox.receive("new", at: 1) { finished.append($0) }
    let insert = inbox.collectionView.currentTransition!
    for element in insert.elements {
        report("popin.insert.\(element.after.map { "\($0.item)" } ?? "-")", element)
    }
    inbox.collectionView.completeTransition()
    inbox.archive(at: 0) { finished.append($0) }
    let delete = inbox.collectionView.currentTransition!
    for element in delete.elements where element.role == .disappearing {
        report("popin.delete.\(element.before!.item)", element)
    }
    inbox.collectionView.completeTransition()
    inbox.forgetToInsert { finished.append($0) }
    report("popin.finished", finished.map { $0 ? "true" : "false" })
    report("popin.refused", inbox.collectionView.lastUpdateError?.message ?? "nothing")
    report("popin.count", inbox.collectionView.numberOfItems(inSection: 0))
}

do {
    let ring = RingController()
    ring.collectionView.layoutIfNeeded()
    for cell in ring.collectionView.visibleCells {
        report("ring.item\(ring.collectionView.indexPath(for: cell)!.item)", cell.frame)
    }
    ring.addDot()
    let added = ring.collectionView.currentTransition!
    for element in added.elements where element.role == .appearing {
        report("ring.added.\(element.after!.item)", element)
    }
    ring.collectionView.completeTransition()
    ring.removeFirstDot()
    let removed = ring.collectionView.currentTransition!
    for element in removed.elements where element.role == .disappearing {
        report("ring.removed.\(element.before!.item)", element)
    }
}

for line in reportedLines { print(line) }
