@_spi(Instrumentation) import TrellisCollectionView
import TrellisText

/// The benchmarks' fixed inputs: a SplitMix64 stream from `seed`.
typealias BenchmarkRandom = SplitMix64

extension SplitMix64 {
    init(seed: UInt64) { self.init(state: seed) }
}

/// Sizes for the benchmarks: widths 40…160, heights 40…120, from a fixed seed.
func variedSizes(_ count: Int, seed: UInt64 = 42) -> [CGSize] {
    var random = BenchmarkRandom(seed: seed)
    return (0..<count).map { _ in CGSize(width: CGFloat(40 + random.next() % 121), height: CGFloat(40 + random.next() % 81)) }
}

/// The limit baseline: the same flow rules for one section, as one plain loop writing into a
/// preallocated array — no delegate, no line index, no section records.
func baselineFlowFrames(
    _ sizes: [CGSize], into frames: inout [CGRect], available: CGFloat, spacing: CGFloat,
    lineSpacing: CGFloat, scale: CGFloat
) {
    let limit = available + 1e-6
    let n = sizes.count
    var i = 0
    var y: CGFloat = 0
    frames.withUnsafeMutableBufferPointer { out in
        sizes.withUnsafeBufferPointer { s in
            while i < n {
                let start = i
                let first = s[i]
                var used = first.width, sum = first.width, height = first.height, same = true
                i += 1
                while i < n, used + spacing + s[i].width <= limit {
                    used += spacing + s[i].width
                    sum += s[i].width
                    height = max(height, s[i].height)
                    same = same && s[i] == first
                    i += 1
                }
                var x: CGFloat = 0, gap = spacing
                let count = i - start
                if i < n {
                    if count == 1 { x = (available - first.width) / 2 } else { gap = (available - sum) / CGFloat(count - 1) }
                } else if same {
                    let fit = max(1, Int(((available + spacing + 1e-6) / (first.width + spacing)).rounded(.down)))
                    if fit == 1 { x = (available - first.width) / 2 } else { gap = (available - CGFloat(fit) * first.width) / CGFloat(fit - 1) }
                }
                for k in start..<i {
                    let size = s[k]
                    out[k] = CGRect(
                        x: LayoutGeometry.snapToPixel(x, scale: scale),
                        y: LayoutGeometry.snapToPixel(y + (height - size.height) / 2, scale: scale),
                        width: size.width, height: size.height)
                    x += size.width + gap
                }
                y += height + (i < n ? lineSpacing : 0)
            }
        }
    }
}

/// Gives the flow layout its sizes, either in one call per section or item by item.
final class SizesDelegate: CollectionViewDelegateFlowLayout {
    let sizes: [CGSize]
    let bulk: Bool
    init(_ sizes: [CGSize], bulk: Bool) { self.sizes = sizes; self.bulk = bulk }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        sizesForItemsInSection section: Int
    ) -> [CGSize]? { bulk ? sizes : nil }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        sizeForItemAt indexPath: IndexPath
    ) -> CGSize { sizes[indexPath.item] }
}
