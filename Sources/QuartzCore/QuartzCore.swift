// `import QuartzCore` on Linux: Core Animation's names as far as Trellis has them — `CALayer`
// (a view's layer: geometry, anchor point, transform, opacity, corner radius, border, shadow)
// and the 3D transforms (`CATransform3D…`, which the porting step writes `Transform3D…`) — from
// Trellis's collection-view module, which comes whole, as `import UIKit` would bring it. Only
// built where Apple's QuartzCore is not (see Package.swift).
@_exported import TrellisCollectionView

// Core Animation's display link and clock.
public typealias CADisplayLink = DisplayLink
public typealias CFTimeInterval = TimeInterval
public func CACurrentMediaTime() -> CFTimeInterval { CurrentMediaTime() }

// Core Animation's own names for the 3D transform and its functions.
public typealias CATransform3D = Transform3D
public let CATransform3DIdentity = Transform3DIdentity
public func CATransform3DIsIdentity(_ t: CATransform3D) -> Bool { Transform3DIsIdentity(t) }
public func CATransform3DEqualToTransform(_ a: CATransform3D, _ b: CATransform3D) -> Bool { Transform3DEqualToTransform(a, b) }
public func CATransform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D { Transform3DMakeTranslation(tx, ty, tz) }
public func CATransform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D { Transform3DMakeScale(sx, sy, sz) }
public func CATransform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    Transform3DMakeRotation(angle, x, y, z)
}
public func CATransform3DConcat(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D { Transform3DConcat(a, b) }
public func CATransform3DTranslate(_ t: CATransform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    Transform3DTranslate(t, tx, ty, tz)
}
public func CATransform3DScale(_ t: CATransform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D { Transform3DScale(t, sx, sy, sz) }
public func CATransform3DRotate(_ t: CATransform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    Transform3DRotate(t, angle, x, y, z)
}
public func CATransform3DInvert(_ t: CATransform3D) -> CATransform3D { Transform3DInvert(t) }
public func CATransform3DMakeAffineTransform(_ m: CGAffineTransform) -> CATransform3D { Transform3DMakeAffineTransform(m) }
public func CATransform3DIsAffine(_ t: CATransform3D) -> Bool { Transform3DIsAffine(t) }
public func CATransform3DGetAffineTransform(_ t: CATransform3D) -> CGAffineTransform { Transform3DGetAffineTransform(t) }
