import CoreGraphics
import QuartzCore
import UIKit

/// Model code as UIKit libraries keep it, free of UIKit but for the geometry (`import
/// CoreGraphics`) and a layer transform (`import QuartzCore`), as MagazineLayout's files do.
struct ItemModelFrame {
    var origin: CGPoint
    var size: CGSize

    var frame: CGRect { CGRect(origin: origin, size: size) }

    /// Whether the item lies in `rect`: Core Graphics' rule, where touching is not overlapping.
    func isVisible(in rect: CGRect) -> Bool { frame.intersects(rect) }
}

func modelGeometrySample() {
    let item = ItemModelFrame(origin: CGPoint(x: 0, y: 100), size: CGSize(width: 50, height: 50))
    report("model.touching", item.isVisible(in: CGRect(x: 0, y: 0, width: 320, height: 100)))
    report("model.overlapping", item.isVisible(in: CGRect(x: 0, y: 0, width: 320, height: 101)))
    let layer = CALayer()
    layer.transform = CATransform3DMakeScale(2, 2, 1)
    report("model.scaledWidth", CGRect(x: 0, y: 0, width: 10, height: 10).applying(CATransform3DGetAffineTransform(layer.transform)).width)
}
