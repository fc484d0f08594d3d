// `import Trellis` is enough, as `import UIKit` is: the geometry types (`CGFloat`, `CGPoint`,
// `CGSize`, `CGRect`), `IndexPath`, `IndexSet` and `NSObject` come from Foundation, which every
// module that imports this one sees too.
@_exported import Foundation
