import Foundation
import UIKit

/// A file that imports Foundation as well as UIKit, as many do: the rect filter below must not
/// silently count tiles that only touch the rect.
func tilesMeeting(_ rect: CGRect, _ tiles: [CGRect]) -> Int {
    return tiles.filter { $0.intersects(rect) }.count
}

func tilesTouch(_ a: CGRect, _ b: CGRect) -> Bool {
    return a.intersects(b)
}
