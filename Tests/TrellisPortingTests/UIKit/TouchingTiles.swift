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

/// Four 100-point tiles in a row with no spacing, and a viewport that ends where tile 2 begins.
func touchingTilesSample() {
    let tiles = (0..<4).map { CGRect(x: CGFloat($0) * 100, y: 0, width: 100, height: 100) }
    let viewport = CGRect(x: 0, y: 0, width: 200, height: 100)
    report("foundationToo.meeting", tilesMeeting(viewport, tiles))
    report("foundationToo.neighboursTouch", tilesTouch(tiles[0], tiles[1]))
    report("foundationToo.visible", tiles.filter(viewport.intersects).count)
    let maybe: CGRect? = tiles[1]
    report("foundationToo.optional", maybe?.intersects(viewport) ?? false)
    report("foundationToo.negated", !tiles[2].intersects(viewport))
}
