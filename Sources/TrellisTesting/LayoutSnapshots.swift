import Foundation
import TrellisCollectionView
import TrellisRender
import TrellisText

/// A screen a layout snapshot is taken on: its size in points, its scale, its size classes, its
/// layout direction and its text size — the traits a layout reads.
public struct SnapshotDevice: Hashable, Sendable {
    /// The name the snapshot files carry (`iPhone-SE`, `iPhone-15-landscape-rtl`).
    public var name: String
    public var size: CGSize
    public var displayScale: CGFloat
    public var horizontalSizeClass: UserInterfaceSizeClass
    public var verticalSizeClass: UserInterfaceSizeClass
    public var layoutDirection: TraitEnvironmentLayoutDirection
    public var contentSizeCategory: ContentSizeCategory

    public init(
        name: String, size: CGSize, displayScale: CGFloat = 2, horizontalSizeClass: UserInterfaceSizeClass = .compact,
        verticalSizeClass: UserInterfaceSizeClass = .regular, layoutDirection: TraitEnvironmentLayoutDirection = .leftToRight,
        contentSizeCategory: ContentSizeCategory = .large
    ) {
        self.name = name
        self.size = size
        self.displayScale = displayScale
        self.horizontalSizeClass = horizontalSizeClass
        self.verticalSizeClass = verticalSizeClass
        self.layoutDirection = layoutDirection
        self.contentSizeCategory = contentSizeCategory
    }

    /// iPhone SE (2nd and 3rd generation): 375 × 667 points at 2×.
    public static let iPhoneSE = SnapshotDevice(name: "iPhone-SE", size: CGSize(width: 375, height: 667))
    /// iPhone 15: 393 × 852 points at 3×.
    public static let iPhone15 = SnapshotDevice(name: "iPhone-15", size: CGSize(width: 393, height: 852), displayScale: 3)
    /// iPad (10th generation): 820 × 1180 points at 2×, regular in both directions.
    public static let iPad = SnapshotDevice(
        name: "iPad", size: CGSize(width: 820, height: 1180), horizontalSizeClass: .regular, verticalSizeClass: .regular)

    /// The same device turned on its side: the width and height swapped; a phone's height is
    /// then compact.
    public var landscape: SnapshotDevice {
        var turned = self
        turned.name += "-landscape"
        turned.size = CGSize(width: size.height, height: size.width)
        if horizontalSizeClass == .compact { turned.verticalSizeClass = .compact }
        return turned
    }

    /// The same device in a right-to-left language.
    public var rightToLeft: SnapshotDevice {
        var mirrored = self
        mirrored.name += "-rtl"
        mirrored.layoutDirection = .rightToLeft
        return mirrored
    }

    /// The same device with the largest text size short of the accessibility sizes
    /// (`.extraExtraExtraLarge`).
    public var largerText: SnapshotDevice {
        var larger = self
        larger.name += "-larger-text"
        larger.contentSizeCategory = .extraExtraExtraLarge
        return larger
    }

    /// The device's traits.
    public var traitCollection: TraitCollection {
        TraitCollection(
            displayScale: displayScale, horizontalSizeClass: horizontalSizeClass, verticalSizeClass: verticalSizeClass,
            layoutDirection: layoutDirection, userInterfaceIdiom: horizontalSizeClass == .regular && verticalSizeClass == .regular ? .pad : .phone,
            preferredContentSizeCategory: contentSizeCategory)
    }

    /// A host for `layout` on this device: its bounds, scale and traits.
    public func host(_ layout: CollectionViewLayout, itemCounts: [Int], delegate: CollectionViewDelegate? = nil) -> StaticLayoutHost {
        let host = StaticLayoutHost(
            layout: layout, itemCounts: itemCounts, bounds: CGRect(origin: .zero, size: size), displayScale: displayScale, delegate: delegate)
        host.collectionView.traitCollection = traitCollection
        return host
    }
}

/// Snapshots of a layout's frames, stored beside the test as JSON (what is compared) and SVG (a
/// picture to look at), one pair per device — as swift-snapshot-testing stores images, in
/// `__Snapshots__/<test file>/<name>.<device>.json`. A mismatch is told geometrically: which
/// element moved or changed size, by how much, which appeared or went.
///
/// ```swift
/// let failures = LayoutSnapshots.verify(named: "photos", devices: [.iPhoneSE, .iPad, .iPhoneSE.rightToLeft]) { device in
///     device.host(PhotoLayout(), itemCounts: [30])
/// }
/// #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
/// ```
///
/// A snapshot that does not exist yet is recorded, and reported as a failure so that a first run
/// is never taken for a passing one; `TRELLIS_RECORD_SNAPSHOTS=1` (or `record: true`) records
/// every snapshot again.
public enum LayoutSnapshots {
    /// Whether snapshots are recorded instead of compared: `TRELLIS_RECORD_SNAPSHOTS=1`.
    public static var isRecording: Bool { ProcessInfo.processInfo.environment["TRELLIS_RECORD_SNAPSHOTS"] == "1" }

    /// The most differences one mismatch lists.
    public static let differencesShown = 20

    /// Compares the layout `host` makes on each of `devices` with the snapshot stored for it
    /// (recording those that are missing, or all of them in record mode). Returns one message per
    /// device that failed; empty when every one matched.
    ///
    /// - Parameter directory: where the snapshots are kept; by default `__Snapshots__/<test
    ///   file's name>` beside the test file (`file`).
    public static func verify(
        named name: String, devices: [SnapshotDevice] = [.iPhoneSE], record: Bool = isRecording,
        file: StaticString = #filePath, directory: URL? = nil, host make: (SnapshotDevice) -> StaticLayoutHost
    ) -> [String] {
        let testFile = URL(fileURLWithPath: "\(file)")
        let folder =
            directory
            ?? testFile.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
            .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent)
        var failures: [String] = []
        for device in devices {
            let snapshot = self.snapshot(make(device))
            let base = folder.appendingPathComponent("\(name).\(device.name)")
            let jsonURL = base.appendingPathExtension("json"), svgURL = base.appendingPathExtension("svg")
            let json = snapshot.json.serialized(pretty: true) + "\n"
            let stored = try? String(contentsOf: jsonURL, encoding: .utf8)
            if !record, let stored {
                if stored == json { continue }
                failures.append("\(name) on \(device.name) differs from \(jsonURL.path):\n" + difference(stored: stored, now: snapshot))
                continue
            }
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data(json.utf8).write(to: jsonURL, options: .atomic)
                try Data(SVGRenderer(title: "\(name) · \(device.name)").render(snapshot).utf8).write(to: svgURL, options: .atomic)
                failures.append(
                    "recorded \(jsonURL.path) and its picture \(svgURL.lastPathComponent)"
                        + (record ? " (record mode is on: turn it off and run again)" : " (there was none: run again to compare)"))
            } catch {
                failures.append("could not record \(jsonURL.path): \(error)")
            }
        }
        return failures
    }

    /// The layout as a collection view on the device shows it: every element, mirrored where the
    /// collection view mirrors its layout (right to left).
    public static func snapshot(_ host: StaticLayoutHost) -> LayoutSnapshot {
        let snapshot = LayoutSnapshot(host: host)
        let collectionView = host.collectionView
        guard collectionView.isMirroringLayout else { return snapshot }
        let mirrored = snapshot.elements.map { a -> CollectionViewLayoutAttributes in
            let copy = a.copy() as! CollectionViewLayoutAttributes
            copy.frame = collectionView.mirrored(a.frame)
            return copy
        }
        return LayoutSnapshot(contentSize: snapshot.contentSize, elements: mirrored)
    }

    /// One element of a stored snapshot.
    struct Stored {
        var key: String
        var frame: CGRect
        var rest: String
    }

    /// The differences between a stored snapshot's JSON and a snapshot now, one per line.
    static func difference(stored text: String, now: LayoutSnapshot) -> String {
        guard let stored = try? JSONValue.parse(text) else { return "  the stored snapshot is not JSON: record it again" }
        var lines: [String] = []
        let oldSize = size(stored["contentSize"])
        if let oldSize, oldSize != now.contentSize {
            lines.append("  content size \(describe(oldSize)) → \(describe(now.contentSize))")
        }
        let before = elements(stored), after = elements(now.json)
        let beforeByKey = Dictionary(before.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        let afterByKey = Dictionary(after.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        for element in after {
            guard let old = beforeByKey[element.key] else {
                lines.append("  \(element.key) is new, at \(describe(element.frame))")
                continue
            }
            let moved = CGPoint(x: element.frame.minX - old.frame.minX, y: element.frame.minY - old.frame.minY)
            let resized = CGSize(width: element.frame.width - old.frame.width, height: element.frame.height - old.frame.height)
            if moved != .zero {
                lines.append("  \(element.key) moved by (\(signed(moved.x)), \(signed(moved.y))) to \(describe(element.frame.origin))")
            }
            if resized != .zero {
                lines.append("  \(element.key) changed size by (\(signed(resized.width)), \(signed(resized.height))) to \(describe(element.frame.size))")
            }
            if element.rest != old.rest { lines.append("  \(element.key): \(old.rest) → \(element.rest)") }
        }
        for element in before where afterByKey[element.key] == nil {
            lines.append("  \(element.key) is gone (it was at \(describe(element.frame)))")
        }
        if lines.isEmpty { lines.append("  the elements are listed in another order") }
        if lines.count > differencesShown {
            let more = lines.count - differencesShown
            lines = Array(lines.prefix(differencesShown)) + ["  … and \(more) more"]
        }
        return lines.joined(separator: "\n")
    }

    private static func elements(_ json: JSONValue) -> [Stored] {
        guard case .array(let items)? = json["elements"] else { return [] }
        return items.map { item in
            let category = item["category"]?.stringValue ?? "?"
            var path: [String] = []
            if case .array(let parts)? = item["indexPath"] { path = parts.map { number($0.numberValue ?? 0) } }
            let name = category == "cell" ? "item" : (item["kind"]?.stringValue ?? category)
            let key = "\(category == "decorationView" ? "decoration " : "")\(name) [\(path.joined(separator: ", "))]"
            let frame = item["frame"].flatMap(rect) ?? .zero
            var rest: [String] = []
            for member in ["zIndex", "alpha", "isHidden", "transform3D"] {
                if let value = item[member] { rest.append("\(member) \(value.serialized(pretty: false))") }
            }
            return Stored(key: key, frame: frame, rest: rest.joined(separator: ", "))
        }
    }

    private static func rect(_ json: JSONValue) -> CGRect? {
        guard let x = json["x"]?.numberValue, let y = json["y"]?.numberValue, let width = json["width"]?.numberValue,
            let height = json["height"]?.numberValue
        else { return nil }
        return CGRect(x: x, y: y, width: width, height: height)
    }

    private static func size(_ json: JSONValue?) -> CGSize? {
        guard let width = json?["width"]?.numberValue, let height = json?["height"]?.numberValue else { return nil }
        return CGSize(width: width, height: height)
    }

    static func number(_ value: Double) -> String { LayoutConformance.number(CGFloat(value)) }
    static func signed(_ value: CGFloat) -> String { value > 0 ? "+\(LayoutConformance.number(value))" : LayoutConformance.number(value) }
    static func describe(_ size: CGSize) -> String { "\(LayoutConformance.number(size.width))×\(LayoutConformance.number(size.height))" }
    static func describe(_ point: CGPoint) -> String { "(\(LayoutConformance.number(point.x)), \(LayoutConformance.number(point.y)))" }
    static func describe(_ rect: CGRect) -> String { LayoutConformance.describe(rect) }
}

extension JSONValue {
    fileprivate var stringValue: String? { if case .string(let text) = self { text } else { nil } }
    fileprivate var numberValue: Double? { if case .number(let number) = self { number } else { nil } }
}
