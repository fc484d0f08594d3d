// `import QuartzCore` on Linux: Core Animation's names as far as Trellis has them — `CALayer`
// (a view's layer: geometry, anchor point, transform, opacity, corner radius, border, shadow)
// and the 3D transforms (`CATransform3D…`, which the porting step writes `Transform3D…`) — from
// Trellis's collection-view module, which comes whole, as `import UIKit` would bring it. Only
// built where Apple's QuartzCore is not (see Package.swift).
@_exported import TrellisCollectionView
