import Foundation
import Testing
import TrellisCollectionView
import TrellisTesting

/// Snapshots recorded, compared and told apart geometrically, in a scratch folder.
@Suite("Layout snapshots")
struct LayoutSnapshotsTests {
    /// A new scratch folder for snapshots.
    static func scratch() -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-snapshots-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func flow(_ itemSize: CGSize = CGSize(width: 100, height: 80), header: Bool = true) -> CollectionViewFlowLayout {
        let layout = CollectionViewFlowLayout()
        layout.itemSize = itemSize
        layout.minimumInteritemSpacing = 10
        if header { layout.headerReferenceSize = CGSize(width: 0, height: 40) }
        return layout
    }

    @Test("a missing snapshot is recorded (JSON and SVG beside the test) and reported; the next run compares and passes")
    func recordThenCompare() throws {
        let folder = Self.scratch()
        let first = LayoutSnapshots.verify(named: "grid", devices: [.iPhoneSE, .iPad], record: false, directory: folder) { device in
            device.host(Self.flow(), itemCounts: [7])
        }
        #expect(first.count == 2)
        #expect(first.allSatisfy { $0.hasPrefix("recorded ") && $0.contains("there was none: run again to compare") }, "\(first)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == ["grid.iPad.json", "grid.iPad.svg", "grid.iPhone-SE.json", "grid.iPhone-SE.svg"])
        let second = LayoutSnapshots.verify(named: "grid", devices: [.iPhoneSE, .iPad], directory: folder) { device in
            device.host(Self.flow(), itemCounts: [7])
        }
        #expect(second.isEmpty, "\(second)")
        // Record mode writes again and says so, so that it is not left on.
        let recorded = LayoutSnapshots.verify(named: "grid", devices: [.iPhoneSE], record: true, directory: folder) { device in
            device.host(Self.flow(), itemCounts: [7])
        }
        #expect(recorded.first?.contains("record mode is on") == true)
    }

    @Test("a mismatch says which element moved or changed size and by how much, which is new and which is gone, and the content size")
    func geometricDifference() throws {
        let folder = Self.scratch()
        _ = LayoutSnapshots.verify(named: "grid", directory: folder) { $0.host(Self.flow(), itemCounts: [7]) }
        let wider = LayoutSnapshots.verify(named: "grid", directory: folder) { $0.host(Self.flow(CGSize(width: 110, height: 80)), itemCounts: [6]) }
        let message = try #require(wider.first)
        #expect(message.contains("grid on iPhone-SE differs from"))
        #expect(message.contains("item [0, 0] changed size by (+10, 0) to 110×80"), "\(message)")
        #expect(message.contains("item [0, 6] is gone (it was at"), "\(message)")
        #expect(message.contains("content size 375×"), "\(message)")
        let moved = LayoutSnapshots.verify(named: "grid", directory: folder) { $0.host(Self.flow(header: false), itemCounts: [7]) }.first ?? ""
        #expect(moved.contains("item [0, 0] moved by (0, -40) to (0, 0)"), "\(moved)")
        #expect(moved.contains("sectionHeader [0, 0] is gone"), "\(moved)")
        let more = LayoutSnapshots.verify(named: "grid", directory: folder) { $0.host(Self.flow(), itemCounts: [40]) }.first ?? ""
        #expect(more.contains("item [0, 7] is new, at"), "\(more)")
        #expect(more.contains("… and"), "at most \(LayoutSnapshots.differencesShown) differences are listed: \(more)")
    }

    @Test("devices: sizes, traits, landscape, right to left (a flow layout's first item on the right), larger text")
    func devices() throws {
        #expect(SnapshotDevice.iPhone15.landscape.size == CGSize(width: 852, height: 393))
        #expect(SnapshotDevice.iPhoneSE.landscape.verticalSizeClass == .compact)
        #expect(SnapshotDevice.iPad.landscape.verticalSizeClass == .regular)
        #expect(SnapshotDevice.iPhoneSE.rightToLeft.largerText.name == "iPhone-SE-rtl-larger-text")
        #expect(SnapshotDevice.iPhoneSE.largerText.traitCollection.preferredContentSizeCategory == .extraExtraExtraLarge)
        let leftToRight = LayoutSnapshots.snapshot(SnapshotDevice.iPhoneSE.host(Self.flow(header: false), itemCounts: [3]))
        let rightToLeft = LayoutSnapshots.snapshot(SnapshotDevice.iPhoneSE.rightToLeft.host(Self.flow(header: false), itemCounts: [3]))
        let first = try #require(leftToRight.elements.first { $0.indexPath.item == 0 }?.frame)
        let mirrored = try #require(rightToLeft.elements.first { $0.indexPath.item == 0 }?.frame)
        #expect(first.minX == 0)
        #expect(mirrored.maxX == 375)
    }
}
