import UIKit

/// A gallery that pinches between a grid and a list, as apps drive an interactive layout
/// transition: the pinch's scale is the transition's progress.
final class GalleryZoomController: NSObject, UICollectionViewDataSource {
    let gridLayout = UICollectionViewFlowLayout()
    let listLayout = UICollectionViewFlowLayout()
    let collectionView: UICollectionView
    var transitionLayout: UICollectionViewTransitionLayout?
    var outcomes: [String] = []

    override init() {
        gridLayout.itemSize = CGSize(width: 100, height: 100)
        listLayout.itemSize = CGSize(width: 320, height: 60)
        collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 568), collectionViewLayout: gridLayout)
        super.init()
        collectionView.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "photo")
        collectionView.dataSource = self
    }

    @objc func handlePinch(_ gesture: UIPinchGestureRecognizer) {
        switch gesture.state {
        case .began:
            let target = collectionView.collectionViewLayout === gridLayout ? listLayout : gridLayout
            transitionLayout = collectionView.startInteractiveTransition(to: target) { [weak self] completed, finished in
                self?.outcomes.append(completed ? "finished" : "cancelled")
            }
        case .changed:
            // Pinching out from 1× to 2× takes the grid all the way to the list.
            transitionLayout?.transitionProgress = min(max(gesture.scale - 1, 0), 1)
            transitionLayout?.invalidateLayout()
        case .ended:
            if let progress = transitionLayout?.transitionProgress, progress > 0.5 {
                collectionView.finishInteractiveTransition()
            } else {
                collectionView.cancelInteractiveTransition()
            }
            transitionLayout = nil
        default:
            collectionView.cancelInteractiveTransition()
            transitionLayout = nil
        }
    }

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        return 9
    }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        return collectionView.dequeueReusableCell(withReuseIdentifier: "photo", for: indexPath)
    }
}

func pinchSample() {
    let controller = GalleryZoomController()
    let view = controller.collectionView
    view.layoutIfNeeded()
    let pinch = UIPinchGestureRecognizer(target: controller, action: #selector(GalleryZoomController.handlePinch(_:)))
    view.addGestureRecognizer(pinch)
    let item4 = IndexPath(item: 4, section: 0)
    pinch.send(.began, scale: 1, at: CGPoint(x: 160, y: 200))
    for scale: CGFloat in [1, 1.5, 2] {
        pinch.send(.changed, scale: scale, at: CGPoint(x: 160, y: 200))
        view.layoutIfNeeded()
        report("pinch.item4.scale\(number(scale))", view.cellForItem(at: item4)!.frame)
        if scale == 1.5 { report("pinch.contentSize.halfway", view.contentSize) }
    }
    pinch.send(.ended, scale: 2, at: CGPoint(x: 160, y: 200))
    report("pinch.layoutIsList", view.collectionViewLayout === controller.listLayout)
    report("pinch.item4.after", view.cellForItem(at: item4)!.frame)
    // A pinch that stops short of halfway goes back to the list's start: the list stays.
    pinch.send(.began, scale: 1, at: CGPoint(x: 160, y: 200))
    pinch.send(.changed, scale: 1.3, at: CGPoint(x: 160, y: 200))
    pinch.send(.ended, scale: 1.3, at: CGPoint(x: 160, y: 200))
    report("pinch.outcomes", controller.outcomes.joined(separator: ","))
    report("pinch.layoutIsStillList", view.collectionViewLayout === controller.listLayout)
}
