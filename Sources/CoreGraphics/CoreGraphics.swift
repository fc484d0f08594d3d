// `import CoreGraphics` on Linux, as UIKit libraries write it to keep model types free of UIKit
// (13 of MagazineLayout's 28 files do): the geometry types — `CGFloat`, `CGPoint`, `CGSize`,
// `CGRect`, `CGAffineTransform`, `CGVector` — with Core Graphics' rules (`CGRect.intersects` false for
// rectangles that only touch, affine transforms as Core Graphics composes them), which Trellis's
// collection-view module carries; it comes with the rest of that module, as `import UIKit` would.
// Only built where Apple's Core Graphics is not (see Package.swift).
@_exported import TrellisCollectionView
