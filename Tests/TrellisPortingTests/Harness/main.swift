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
// The list sample's accessories are read and tapped headless (`accessoryFrames`, `tapAccessory`).
do {
    let controller = ListSettingsController()
    controller.load()
    let collectionView = controller.collectionView
    collectionView.layoutIfNeeded()
    report("listSettings.rows", controller.dataSource.snapshot().itemIdentifiers)
    for item in 0 ..< collectionView.numberOfItems(inSection: 0) {
        report("listSettings.row\(item)", collectionView.cellForItem(at: IndexPath(item: item, section: 0))!.frame)
    }
    let wifi = collectionView.cellForItem(at: IndexPath(item: 0, section: 0)) as! ListCell
    let content = wifi.contentConfiguration as! ListContentConfiguration
    report("listSettings.font", content.textProperties.font.pointSize)
    report("listSettings.lineHeight", content.textProperties.font.lineHeight)
    report("listSettings.secondaryIsSecondaryLabel", content.secondaryTextProperties.color == Color.secondaryLabel)
    report("listSettings.chevronTrailing", wifi.accessoryFrames.map { $0.frame.minX > collectionView.bounds.midX ? "true" : "false" })
    collectionView.tapAccessory(.outlineDisclosure, ofItemAt: IndexPath(item: 2, section: 0))
    collectionView.layoutIfNeeded()
    report("listSettings.expanded", controller.dataSource.snapshot().itemIdentifiers)
    report("listSettings.row4", collectionView.cellForItem(at: IndexPath(item: 4, section: 0))!.frame)
    // A long press on Bluetooth opens its menu; Delete removes the row.
    report("listSettings.menu", collectionView.openContextMenu(forItemsAt: [IndexPath(item: 1, section: 0)], at: .zero)?.title ?? "none")
    report("listSettings.deleted", collectionView.chooseContextMenuAction(titled: "Delete"))
    report("listSettings.afterDelete", controller.dataSource.snapshot().itemIdentifiers)
}

// The inset-grouped list appears on the default screen (390 × 844, compact), then on a regular
// width (an iPad's 820 points).
do {
    let controller = InsetGroupedListController()
    controller.appear()
    let collectionView = controller.collectionView!
    report("insetGrouped.title", controller.navigationItem.title ?? "none")
    report("insetGrouped.rootMargins", controller.view.layoutMargins)
    report("insetGrouped.listMargins", collectionView.layoutMargins)
    let row = collectionView.cellForItem(at: IndexPath(item: 0, section: 0))!.frame
    report("insetGrouped.rowX", row.minX)
    report("insetGrouped.rowWidth", row.width)
    controller.view.traitCollection = TraitCollection(horizontalSizeClass: .regular)
    controller.view.frame = CGRect(x: 0, y: 0, width: 820, height: 1180)
    collectionView.layoutIfNeeded()
    let wide = collectionView.cellForItem(at: IndexPath(item: 0, section: 1))!.frame
    report("insetGrouped.regularX", wide.minX)
    report("insetGrouped.regularWidth", wide.width)
    report("insetGrouped.tapDeselects", collectionView.tapItem(at: IndexPath(item: 1, section: 0)) && collectionView.indexPathsForSelectedItems == [])
}

// The spring layout: the finger down at (160, 100), the content scrolled 40 points, then the
// animator stepped until it rests.
do {
    let layout = SpringyFlowLayout()
    layout.itemSize = CGSize(width: 300, height: 40)
    let collectionView = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), collectionViewLayout: layout)
    collectionView.register(CollectionViewCell.self, forCellWithReuseIdentifier: "bubble")
    let source = SpringyDataSource()
    collectionView.dataSource = source
    collectionView.layoutIfNeeded()
    report("springy.tracked", layout.trackedIndexPaths.count)
    report("springy.item10AtRest", collectionView.layoutAttributesForItem(at: IndexPath(item: 10, section: 0))!.frame)
    collectionView.panGestureRecognizer.send(.began, at: CGPoint(x: 160, y: 100))
    collectionView.contentOffset = CGPoint(x: 0, y: 40)
    report("springy.item0Pushed", collectionView.layoutAttributesForItem(at: IndexPath(item: 0, section: 0))!.frame.minY)
    report("springy.item10Pushed", collectionView.layoutAttributesForItem(at: IndexPath(item: 10, section: 0))!.frame.minY)
    report("springy.running", layout.dynamicAnimator.isRunning)
    layout.dynamicAnimator.step(by: 10)
    collectionView.layoutIfNeeded()
    // At rest within a hundredth of a point (the animator pauses once nothing moves visibly); the
    // springs of items that came into view meanwhile start at rest, so one more step pauses it.
    let settled = collectionView.layoutAttributesForItem(at: IndexPath(item: 10, section: 0))!.frame
    report("springy.item10Settled", CGRect(x: settled.minX, y: (settled.minY * 100).rounded() / 100, width: settled.width, height: settled.height))
    layout.dynamicAnimator.step(by: 1.0 / 60)
    report("springy.resting", !layout.dynamicAnimator.isRunning)
    withExtendedLifetime(source) {}
}

// The reminder list: swiped, starred, a full swipe deletes; Edit shows each row's controls; a
// reorder through the data source's handlers.
do {
    let controller = ReminderListController()
    controller.appear()
    let collectionView = controller.collectionView!
    report("reminders.title", controller.navigationItem.title ?? "none")
    report("reminders.row0", collectionView.cellForItem(at: IndexPath(item: 0, section: 0))!.frame)
    let swipe = collectionView.swipeActionsConfiguration(forItemAt: IndexPath(item: 1, section: 0), edge: .trailing)
    report("reminders.swipeActions", swipe?.actions.map { $0.title ?? "" } ?? [])
    report("reminders.leadingSwipe", collectionView.swipeActionsConfiguration(forItemAt: IndexPath(item: 1, section: 0), edge: .leading) == nil)
    report("reminders.star", collectionView.performSwipeAction(at: 1, forItemAt: IndexPath(item: 1, section: 0), edge: .trailing))
    report("reminders.starred", controller.starred)
    report("reminders.fullSwipe", collectionView.performSwipeAction(forItemAt: IndexPath(item: 0, section: 0), edge: .trailing, fullSwipe: true))
    collectionView.completeTransition()
    collectionView.layoutIfNeeded()
    report("reminders.afterDelete", controller.dataSource.snapshot().itemIdentifiers)
    let row = collectionView.cellForItem(at: IndexPath(item: 0, section: 0)) as! ListCell
    report("reminders.controlsBefore", row.accessoryFrames.count)
    controller.navigationItem.rightBarButtonItem!.sendAction()
    collectionView.layoutIfNeeded()
    report("reminders.editing", controller.isEditing && collectionView.isEditing)
    report("reminders.editButton", controller.editButtonItem.title ?? "none")
    let editingRow = collectionView.cellForItem(at: IndexPath(item: 0, section: 0)) as! ListCell
    report("reminders.controlsEditing", editingRow.accessoryFrames.count)
    report("reminders.deleteLeading", editingRow.accessoryFrames.map { $0.frame.minX < 100 ? "leading" : "trailing" })
    collectionView.beginInteractiveMovementForItem(at: IndexPath(item: 0, section: 0))
    collectionView.updateInteractiveMovementTargetPosition(collectionView.layoutAttributesForItem(at: IndexPath(item: 2, section: 0))!.center)
    collectionView.endInteractiveMovement()
    report("reminders.reordered", controller.reminders)
}

// The outline browser: keyboard focus, a folder expanded (its children loaded then), the
// carousel swiped.
do {
    let browser = OutlineBrowserController()
    browser.appear()
    let collectionView = browser.collectionView!
    report("browser.firstFocus", collectionView.moveFocus(.next).map { [$0.section, $0.item] } ?? [])
    report("browser.secondFocus", collectionView.moveFocus(.down).map { [$0.section, $0.item] } ?? [])
    report("browser.selected", browser.selected)
    report("browser.expanded", browser.dataSource.tapOutlineDisclosure(ofItemAt: IndexPath(item: 0, section: 1)))
    report("browser.loaded", browser.loaded)
    report("browser.library", browser.dataSource.snapshot(for: .library).visibleItems)
    browser.dataSource.tapOutlineDisclosure(ofItemAt: IndexPath(item: 0, section: 1))
    browser.dataSource.tapOutlineDisclosure(ofItemAt: IndexPath(item: 0, section: 1))
    report("browser.loadedOnce", browser.loaded)
    report("browser.carouselRest", collectionView.endOrthogonalDragging(inSection: 0, withVelocity: CGPoint(x: 1, y: 0)))
}

// The sticker board is dragged headless: a drag lifted from B, moved over F and rested (the
// fast cadence), dropped; then a drag of "Z" from another app dropped onto the first sticker.
do {
    let board = DragBoardController()
    let collectionView = board.collectionView
    collectionView.layoutIfNeeded()
    let drag = collectionView.beginDrag(at: CGPoint(x: 187.5, y: 50))!
    report("dragBoard.hasActiveDrag", collectionView.hasActiveDrag)
    drag.move(to: CGPoint(x: 300, y: 150), over: collectionView)
    report("dragBoard.beforeRest", board.labels())
    drag.wait(0.15)
    report("dragBoard.afterRest", board.labels())
    report("dragBoard.destination", drag.destinationIndexPath.map { [$0.section, $0.item] } ?? [])
    report("dragBoard.lifted", collectionView.cellForItem(at: IndexPath(item: 5, section: 0))!.frame)
    report("dragBoard.madeWay", collectionView.cellForItem(at: IndexPath(item: 1, section: 0))!.frame)
    report("dragBoard.dropped", drag.drop())
    collectionView.completeTransition()
    collectionView.layoutIfNeeded()
    report("dragBoard.stickers", board.stickers)
    report("dragBoard.labels", board.labels())
    report("dragBoard.bFrame", collectionView.cellForItem(at: IndexPath(item: 5, section: 0))!.frame)
    let outside = HeadlessDrag(itemsFromAnotherApp: [DragItem(itemProvider: ItemProvider(object: "Z" as NSString))])
    outside.move(to: CGPoint(x: 50, y: 50), over: collectionView)
    outside.wait(0.15)
    report("dragBoard.gap", board.labels())
    report("dragBoard.aMadeWay", collectionView.cellForItem(at: IndexPath(item: 1, section: 0))!.frame)
    report("dragBoard.copied", outside.drop())
    collectionView.completeTransition()
    collectionView.layoutIfNeeded()
    report("dragBoard.placeholder", board.labels())
    report("dragBoard.loaded", board.loadedTexts)
    board.finishLoads()
    collectionView.completeTransition()
    collectionView.layoutIfNeeded()
    report("dragBoard.final", board.labels())
    report("dragBoard.log", board.log)
}

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

do {
    // Taps are Trellis's `tapItem(at:)`: what a person's tap does in UIKit.
    let shelf = PhotoShelfController()
    shelf.load()
    let view = shelf.collectionView
    view.layoutIfNeeded()
    let layout = view.collectionViewLayout as! ShelfLayout
    report("shelf.contentSize", layout.collectionViewContentSize)
    for (section, rect) in layout.backgroundRects.enumerated() { report("shelf.background\(section)", rect) }
    report("shelf.visibleCells", view.visibleCells.count)
    let headers = [0, 1].map { (view.supplementaryView(forElementKind: CollectionView.elementKindSectionHeader,
                                                          at: IndexPath(item: 0, section: $0)) as? TitleHeader)?.text ?? "-" }
    report("shelf.headers", headers)
    let cell = view.cellForItem(at: IndexPath(item: 2, section: 0)) as! PhotoCell
    report("shelf.cell2.title", cell.title)
    report("shelf.cell2.frame", cell.frame)
    report("shelf.cell2.corner", cell.contentView.layer.cornerRadius)
    report("shelf.cell2.border", Color(cgColor: cell.contentView.layer.borderColor!).hexString)
    func selected() -> String {
        (view.indexPathsForSelectedItems ?? []).map { "\($0.section).\($0.item)" }.joined(separator: " ")
    }
    view.tapItem(at: IndexPath(item: 1, section: 0))
    let tapped = view.cellForItem(at: IndexPath(item: 1, section: 0))!
    report("shelf.tap1.selected", selected())
    report("shelf.tap1.color", tapped.contentView.backgroundColor?.hexString ?? "none")
    report("shelf.tap1.scale", tapped.transform.a)
    view.tapItem(at: IndexPath(item: 4, section: 0))
    report("shelf.tapLocked.selected", selected())
    view.tapItem(at: IndexPath(item: 0, section: 1))
    report("shelf.tapE.selected", selected())
    report("shelf.tapE.previousColor", tapped.contentView.backgroundColor?.hexString ?? "none")
    report("shelf.opened", shelf.opened)
    report("shelf.log", shelf.log)
    shelf.moveToEnd("e")
    view.completeTransition()
    report("shelf.moved.selected", selected())
    report("shelf.moved.selectedCell", (view.cellForItem(at: IndexPath(item: 1, section: 1)) as? PhotoCell)?.isSelected ?? false)
    shelf.remove("e")
    view.completeTransition()
    report("shelf.removed.selected", selected())
    view.selectItem(at: IndexPath(item: 0, section: 0), animated: false, scrollPosition: [])
    view.allowsMultipleSelection = true
    view.selectItem(at: IndexPath(item: 2, section: 0), animated: false, scrollPosition: [])
    report("shelf.programmatic.selected", selected())
    view.tapItem(at: IndexPath(item: 0, section: 0))
    report("shelf.multiple.selected", selected())
    report("shelf.finalOpened", shelf.opened)
    report("shelf.finalLog", shelf.log)
}

do {
    // Apple's modern-layout patterns, ported by the mechanical step alone.
    let modern = ModernLayoutsController()
    let view = modern.collectionView
    view.layoutIfNeeded()
    func item(_ s: Int, _ i: Int) -> CGRect { view.layoutAttributesForItem(at: IndexPath(item: i, section: s))!.frame }
    report("modern.featured0", item(0, 0))
    report("modern.featured1", item(0, 1))
    report("modern.featuredScales", [modern.cardScales[0] ?? -1, modern.cardScales[1] ?? -1])
    let swiped = view.endOrthogonalDragging(inSection: 0, withVelocity: CGPoint(x: 2, y: 0))
    report("modern.swipe.offset", swiped)
    report("modern.swipe.featured1", item(0, 1))
    report("modern.swipe.scale1", modern.cardScales[1] ?? -1)
    report("modern.swipe.visibleFeatured", view.indexPathsForVisibleItems.filter { $0.section == 0 }.map(\.item))
    report("modern.gridHeader", view.layoutAttributesForSupplementaryElement(ofKind: ModernLayoutsController.headerKind,
                                                                            at: IndexPath(item: 0, section: 1))!.frame)
    report("modern.grid0", item(1, 0))
    report("modern.grid4", item(1, 4))
    report("modern.badge0", view.layoutAttributesForSupplementaryElement(ofKind: ModernLayoutsController.badgeKind,
                                                                        at: IndexPath(item: 0, section: 1))!.frame)
    report("modern.nested0", item(2, 0))
    report("modern.nested1", item(2, 1))
    report("modern.nested2", item(2, 2))
    report("modern.background", view.collectionViewLayout.layoutAttributesForDecorationView(
        ofKind: ModernLayoutsController.backgroundKind, at: IndexPath(item: 0, section: 2))!.frame)
    report("modern.list0", item(3, 0))
    report("modern.visibleBadges", view.visibleSupplementaryViews(ofKind: ModernLayoutsController.badgeKind).count)
    report("modern.contentSize", view.collectionViewLayout.collectionViewContentSize)
    view.setContentOffset(CGPoint(x: 0, y: 600), animated: false)
    view.layoutIfNeeded()
    report("modern.selfSized2", item(3, 2))
    report("modern.selfSized3", item(3, 3))
    report("modern.selfSized.contentSize", view.collectionViewLayout.collectionViewContentSize)
    view.setContentOffset(CGPoint(x: 0, y: 1200), animated: false)
    view.layoutIfNeeded()
    report("modern.pinnedHeader", view.layoutAttributesForSupplementaryElement(ofKind: CollectionView.elementKindSectionHeader,
                                                                              at: IndexPath(item: 0, section: 3))!.frame)
}

modelGeometrySample()
touchingTilesSample()
sectionedListSample()
tagCloudSample()
slotStripSample()
reorderSample()
pinchSample()
arabicGridSample()
delegateReadingSample()
stickyBannerSample()

for line in reportedLines { print(line) }
