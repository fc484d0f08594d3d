import Foundation
import Testing
import TrellisTestSupport

@testable import TrellisPort

/// `trellis port`'s rewrites, one pattern at a time, text in and text out.
@Suite("trellis port rewrites")
struct PortRewriteTests {
    /// The rewrites with the renaming step, as the samples are ported (the default leaves
    /// UIKit's names to the UIKit module: see `uikitNamesKept`).
    func port(_ text: String, path: String = "A.swift") throws -> PortOutcome {
        try SwiftPort.port([(path: path, text: text)], renaming: true)
    }

    func ported(_ text: String) throws -> String { try port(text).files[0].ported }

    @Test("an optional requirement returning Void or an optional gets a default; its ?( calls become plain calls")
    func plainOptionalRequirements() throws {
        let outcome = try port(
            """
            import UIKit

            @objc protocol PickerDelegate: AnyObject {
                @objc optional func pickerDidChange(_ picker: Picker)
                @objc optional func picker(_ picker: Picker, titleFor row: Int) -> String?
            }

            final class Picker {
                weak var delegate: PickerDelegate?
                func change() {
                    delegate?.pickerDidChange?(self)
                    print(delegate?.picker?(self, titleFor: 0) ?? "none")
                    onChange?(self)
                }
                var onChange: ((Picker) -> Void)?
            }

            """)
        #expect(
            outcome.files[0].ported == """
                import Trellis

                protocol PickerDelegate: AnyObject {
                    func pickerDidChange(_ picker: Picker)
                    func picker(_ picker: Picker, titleFor row: Int) -> String?
                }

                // Defaults for the optional requirements of PickerDelegate.
                extension PickerDelegate {
                    func pickerDidChange(_ picker: Picker) {}

                    func picker(_ picker: Picker, titleFor row: Int) -> String? { nil }
                }

                final class Picker {
                    weak var delegate: PickerDelegate?
                    func change() {
                        delegate?.pickerDidChange(self)
                        print(delegate?.picker(self, titleFor: 0) ?? "none")
                        onChange?(self)
                    }
                    var onChange: ((Picker) -> Void)?
                }

                """)
        #expect(outcome.left.isEmpty)
        #expect(outcome.changes.map(\.line) == [1, 3, 4, 4, 5, 5, 11, 12])
    }

    @Test("an optional requirement with a non-optional result throws by default; ?( becomes (try? …) and !( (try! …)")
    func throwingOptionalRequirements() throws {
        let text = try ported(
            """
            @objc public protocol GridDelegate: NSObjectProtocol {
                @objc optional func grid(_ grid: Grid, widthOf column: Int) -> CGFloat
            }
            final class Grid {
                weak var delegate: GridDelegate?
                var width: CGFloat = 40
                func widths() -> [CGFloat] {
                    let a = delegate?.grid?(self, widthOf: 0) ?? width
                    let b = delegate!.grid!(self, widthOf: 1) + 1
                    return [a, b, self.delegate?.grid?(self, widthOf: 2).rounded() ?? 0]
                }
            }
            """)
        #expect(
            text == """
                public protocol GridDelegate: NSObjectProtocol {
                    func grid(_ grid: Grid, widthOf column: Int) throws -> CGFloat
                }

                // Defaults for the optional requirements of GridDelegate.
                extension GridDelegate {
                    public func grid(_ grid: Grid, widthOf column: Int) throws -> CGFloat {
                        throw UnimplementedOptionalRequirement("GridDelegate.grid(_:widthOf:)")
                    }
                }
                final class Grid {
                    weak var delegate: GridDelegate?
                    var width: CGFloat = 40
                    func widths() -> [CGFloat] {
                        let a = (try? delegate?.grid(self, widthOf: 0)) ?? width
                        let b = (try! delegate!.grid(self, widthOf: 1)) + 1
                        return [a, b, (try? self.delegate?.grid(self, widthOf: 2).rounded()) ?? 0]
                    }
                }
                """)
    }

    @Test("a ?( call of UIKit's optional requirements becomes a plain call; a closure property's ?( stays")
    func uikitRequirements() throws {
        let text = try ported(
            """
            let size = (collectionView.delegate as? UICollectionViewDelegateFlowLayout)?
                .collectionView?(collectionView, layout: self, sizeForItemAt: indexPath) ?? itemSize
            let spacing = flow.collectionView!(collectionView, layout: self, minimumLineSpacingForSectionAt: 0)
            delegate?.scrollViewDidScroll?(scrollView)
            completion?(true)
            handler?.collectionView?(collectionView, unknownThing: 1)
            """)
        #expect(
            text == """
                let size = (collectionView.delegate as? CollectionViewDelegateFlowLayout)?
                    .collectionView(collectionView, layout: self, sizeForItemAt: indexPath) ?? itemSize
                let spacing = flow.collectionView(collectionView, layout: self, minimumLineSpacingForSectionAt: 0)
                delegate?.scrollViewDidScroll(scrollView)
                completion?(true)
                handler?.collectionView?(collectionView, unknownThing: 1)
                """)
    }

    @Test("responds(to:) becomes true, or a map over the optional chain; conforms(to:) becomes is")
    func runtimeChecks() throws {
        let text = try ported(
            """
            if delegate.responds(to: #selector(UICollectionViewDelegate.collectionView(_:didSelectItemAt:))) { a() }
            if delegate?.responds(to: #selector(UICollectionViewDelegate.collectionView(_:didSelectItemAt:))) ?? false { b() }
            let c = (collectionView?.delegate?.responds(to: #selector(UIScrollViewDelegate.scrollViewDidScroll(_:))))!
            guard collectionView!.delegate!.conforms(to: UICollectionViewDelegateFlowLayout.self) else { return }
            let d = self.collectionView?.delegate?.conforms(to: UICollectionViewDelegateFlowLayout.self) == true
            """)
        #expect(
            text == """
                if true { a() }
                if delegate.map({ _ in true }) ?? false { b() }
                let c = ((collectionView?.delegate).map({ _ in true }))!
                guard (collectionView!.delegate! is CollectionViewDelegateFlowLayout) else { return }
                let d = (self.collectionView?.delegate).map({ $0 is CollectionViewDelegateFlowLayout }) == true
                """)
    }

    @Test("responds(to:) of a requirement whose default throws, and a target–action #selector, are left, named")
    func leftSelectors() throws {
        let outcome = try port(
            """
            @objc protocol P { @objc optional func width() -> CGFloat }
            func f(p: P) -> Bool { p.responds(to: #selector(P.width)) }
            let button = UISwitch(); button.addTarget(self, action: #selector(add), for: .valueChanged)
            """)
        try #require(outcome.left.map(\.line) == [2, 3, 3])
        #expect(outcome.left[0].change == "left: responds(to: #selector(P.width))")
        #expect(outcome.left[0].reason.contains("(try? p.width(…))"))
        // UISwitch is UIKit's, and Trellis has none: left as it is, never renamed; `add` is
        // declared nowhere in the files, so its selector is left too.
        #expect(outcome.left.map(\.change).contains("left: UISwitch"))
        #expect(outcome.left.map(\.change).contains("left: #selector(add)"))
        #expect(outcome.files[0].ported.contains("= UISwitch()"))
        #expect(outcome.files[0].ported.contains("p.responds(to: #selector(P.width))"))
    }

    @Test("a recognizer's target–action #selector becomes a closure calling the same method of the same target, held weakly")
    func targetAction() throws {
        let outcome = try SwiftPort.port([
            (
                path: "Zoom.swift",
                text: """
                import UIKit
                final class Zoom {
                    let view = UIView()
                    func install() {
                        view.addGestureRecognizer(UIPinchGestureRecognizer(target: self, action: #selector(handlePinch(_:))))
                        let press = UILongPressGestureRecognizer(target: self, action: #selector(pressed))
                        press.addTarget(self, action: #selector(Zoom.anyGesture(recognizer:)))
                        let other = UILongPressGestureRecognizer(target: helper, action: #selector(Helper.ping))
                        _ = (press, other)
                    }
                    @objc func handlePinch(_ gesture: UIPinchGestureRecognizer) {}
                    @objc func pressed() {}
                    @objc func anyGesture(recognizer: UIGestureRecognizer) {}
                    let helper = Helper()
                }
                final class Helper { @objc func ping() {} }

                """
            )
        ])
        let text = outcome.files[0].ported
        #expect(outcome.left.isEmpty, "\(outcome.left.map(\.description))")
        #expect(text.contains("UIPinchGestureRecognizer(target: self, action: { [weak self] in self?.handlePinch($0 as! UIPinchGestureRecognizer) })"))
        #expect(text.contains("UILongPressGestureRecognizer(target: self, action: { [weak self] _ in self?.pressed() })"))
        #expect(text.contains("press.addTarget(self, action: { [weak self] in self?.anyGesture(recognizer: $0) })"))
        #expect(text.contains("UILongPressGestureRecognizer(target: helper, action: { [weak target = helper] _ in target?.ping() })"))
        // A method not declared here is left, named.
        let left = try SwiftPort.port([
            (
                path: "B.swift",
                text: "import UIKit\nfunc f(g: UIPinchGestureRecognizer) {\n    g.addTarget(self, action: #selector(elsewhere(_:)))\n}\n"
            )
        ])
        #expect(left.left.map(\.change).filter { $0.contains("#selector") } == ["left: #selector(elsewhere(_:))"])
    }

    /// A view controller's controls, bar button items and display link, with `#selector`s.
    static let controls = """
        import UIKit
        import QuartzCore

        final class Player {
            let toggle = UIControl()
            let slider = UIControl()
            var link: CADisplayLink?
            var items: [UIBarButtonItem] = []
            var log: [String] = []

            func install() {
                toggle.addTarget(self, action: #selector(toggled(_:)), for: .valueChanged)
                slider.addTarget(self, action: #selector(slid), for: [.touchUpInside, .touchUpOutside])
                let done = UIBarButtonItem(title: "Done", style: .done, target: self, action: #selector(finish(_:)))
                let add = UIBarButtonItem(barButtonSystemItem: .add, target: self, action: #selector(add))
                items = [done, add]
                link = CADisplayLink(target: self, selector: #selector(step(_:)))
            }

            @objc func toggled(_ sender: UIControl) { log.append("toggled") }
            @objc func slid() { log.append("slid") }
            @objc func finish(_ item: UIBarButtonItem) { log.append("finish") }
            @objc func add() { log.append("add") }
            @objc func step(_ link: CADisplayLink) { log.append("step") }
        }

        """

    @Test("a control's, a bar button item's and a display link's #selector become closures calling the same method")
    func controlsAndLinks() throws {
        let outcome = try SwiftPort.port([(path: "Player.swift", text: Self.controls)])
        let text = outcome.files[0].ported
        #expect(outcome.left.isEmpty, "\(outcome.left.map(\.description))")
        #expect(text.contains("toggle.addTarget(self, action: { [weak self] in self?.toggled($0) }, for: .valueChanged)"))
        #expect(text.contains("slider.addTarget(self, action: { [weak self] _ in self?.slid() }, for: [.touchUpInside, .touchUpOutside])"))
        #expect(text.contains("UIBarButtonItem(title: \"Done\", style: .done, target: self, action: { [weak self] in self?.finish($0) })"))
        #expect(text.contains("UIBarButtonItem(barButtonSystemItem: .add, target: self, action: { [weak self] _ in self?.add() })"))
        #expect(text.contains("link = CADisplayLink(target: self, action: { [weak self] in self?.step($0) })"))
        #expect(!text.contains("#selector"))
    }

    @Test("a timer's and a delayed perform's #selector become Foundation's block-based timer calling the same method; a userInfo is left")
    func timers() throws {
        let source = """
            import UIKit
            final class Ticker {
                var timer: Timer?
                func start() {
                    timer = Timer.scheduledTimer(timeInterval: 0.5, target: self, selector: #selector(tick(_:)), userInfo: nil, repeats: true)
                    let once = Timer(timeInterval: 1, target: self, selector: #selector(stop), userInfo: nil, repeats: false)
                    perform(#selector(flash(_:)), with: "hi", afterDelay: 0.25)
                    self.perform(#selector(stop), with: nil, afterDelay: 2)
                    _ = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(stop), userInfo: ["k": 1], repeats: false)
                    _ = once
                }
                @objc func tick(_ timer: Timer) {}
                @objc func stop() {}
                @objc func flash(_ text: String) {}
            }

            """
        let outcome = try SwiftPort.port([(path: "Ticker.swift", text: source)])
        let text = outcome.files[0].ported
        #expect(text.contains("timer = Timer.scheduledTimer(withTimeInterval: 0.5, repeats: true) { timer in self.tick(timer) }"))
        #expect(text.contains("let once = Timer(withTimeInterval: 1, repeats: false) { _ in self.stop() }"))
        #expect(text.contains("        _ = Timer.scheduledTimer(withTimeInterval: 0.25, repeats: false) { _ in self.flash(\"hi\") }\n"))
        #expect(text.contains("        _ = Timer.scheduledTimer(withTimeInterval: 2, repeats: false) { _ in self.stop() }\n"))
        #expect(outcome.left.map(\.change) == ["left: #selector(stop)"], "the userInfo one: \(outcome.left.map(\.description))")
    }

    @Test("an override in an extension moves into its class, here or in another file; a debugging one of a class elsewhere is dropped")
    func overrides() throws {
        let layout = """
            final class StripLayout: UICollectionViewLayout {
                var width: CGFloat = 10
            }

            """
        let extensions = """
            // MARK: - Layout

            extension StripLayout {
                /// The strip's size.
                override var collectionViewContentSize: CGSize {
                    return CGSize(width: width, height: 1)
                }

                @objc override func prepare() { super.prepare() }

                func helper() {}
            }

            extension UICollectionViewLayoutAttributes {
                override open var description: String { "attributes" }
                override func copy(with zone: NSZone? = nil) -> Any { self }
            }

            """
        let outcome = try SwiftPort.port(
            [(path: "StripLayout.swift", text: layout), (path: "StripLayout+Layout.swift", text: extensions)], renaming: true)
        #expect(
            outcome.files[0].ported == """
                final class StripLayout: CollectionViewLayout {
                    var width: CGFloat = 10

                    /// The strip's size.
                    override var collectionViewContentSize: CGSize {
                        return CGSize(width: width, height: 1)
                    }

                    override func prepare() { super.prepare() }
                }

                """)
        #expect(
            outcome.files[1].ported == """
                // MARK: - Layout

                extension StripLayout {
                    func helper() {}
                }

                extension CollectionViewLayoutAttributes {
                    override func copy(with zone: NSZone? = nil) -> Any { self }
                }

                """)
        #expect(outcome.left.count == 1 && outcome.left.first?.change == "left: override copy in an extension of CollectionViewLayoutAttributes")
        // Only the file being written changes: the class elsewhere is read, not written, so the
        // override cannot move and is left.
        let single = try SwiftPort.port(
            [(path: "StripLayout.swift", text: layout), (path: "StripLayout+Layout.swift", text: extensions)],
            writing: ["StripLayout+Layout.swift"], renaming: true)
        #expect(single.files.map(\.path) == ["StripLayout+Layout.swift"])
        #expect(single.left.map(\.change).contains("left: override collectionViewContentSize in an extension of StripLayout"))
    }

    @Test("@objc, @objcMembers and Interface Builder's attributes go; their lines go when they stand alone")
    func attributes() throws {
        let text = try ported(
            """
            @objcMembers
            final class Cell: UICollectionViewCell {
                @IBOutlet weak var label: UILabel!
                @objc(tapWithSender:)
                func tap(sender: Any) {}
                @IBAction func done(_ sender: Any) {}
                @objc dynamic var value = 0
                @available(iOS 13, *) func modern() {}
            }
            """)
        #expect(
            text == """
                final class Cell: CollectionViewCell {
                    weak var label: UILabel!
                    func tap(sender: Any) {}
                    func done(_ sender: Any) {}
                    dynamic var value = 0
                    @available(iOS 13, *) func modern() {}
                }
                """)
    }

    @Test("an optional property requirement of an optional type defaults to nil; of another type it is left")
    func optionalProperties() throws {
        let outcome = try port(
            """
            @objc protocol Source {
                @objc optional var title: String? { get }
                @objc optional var count: Int { get }
            }
            """)
        #expect(outcome.files[0].ported.contains("    var title: String? { get }\n"))
        #expect(outcome.files[0].ported.contains("extension Source {\n    var title: String? { nil }\n}"))
        #expect(outcome.left.map(\.change) == ["left: optional property requirement Source.count: Int"])
    }

    @Test("by default UIKit's names stay (the UIKit module has them); a UIKit name Trellis lacks is left, named, in either mode")
    func uikitNamesKept() throws {
        let source = """
            import UIKit
            import UIKit.UIGestureRecognizerSubclass

            @objc protocol UIShelfDelegate: AnyObject { @objc optional func shelfDidChange() }
            final class Shelf: UICollectionViewFlowLayout {
                let label = UILabel(frame: .zero)
                let snapshot = NSDiffableDataSourceSnapshot<Int, Int>()
                let t = CATransform3DMakeScale(1, 1, 1)
                let layer = CALayer(), n = NSObject(), insets = NSDirectionalEdgeInsets.zero
                weak var delegate: UIShelfDelegate?
            }

            """
        let kept = try SwiftPort.port([(path: "Shelf.swift", text: source)])
        #expect(kept.files[0].ported.hasPrefix("import UIKit\nimport UIKit.UIGestureRecognizerSubclass\n\nprotocol UIShelfDelegate"))
        #expect(kept.files[0].ported.contains("final class Shelf: UICollectionViewFlowLayout {"))
        #expect(kept.left.map(\.change) == ["left: UIGestureRecognizerSubclass", "left: UILabel"])
        #expect(kept.left.map(\.line) == [2, 6])
        #expect(!kept.changes.contains { $0.change.contains("→ Trellis") || $0.change.contains("UICollectionViewFlowLayout") })
        let renamed = try SwiftPort.port([(path: "Shelf.swift", text: source)], renaming: true)
        let text = renamed.files[0].ported
        #expect(text.hasPrefix("import Trellis\nimport Trellis.UIGestureRecognizerSubclass"))
        #expect(text.contains("protocol ShelfDelegate") && text.contains("weak var delegate: ShelfDelegate?"), "a name of the file's own, alike")
        #expect(text.contains("final class Shelf: CollectionViewFlowLayout {") && text.contains("= UILabel(frame: .zero)"))
        #expect(text.contains("DiffableDataSourceSnapshot<Int, Int>()") && text.contains("Transform3DMakeScale(1, 1, 1)"))
        #expect(text.contains("CALayer(), n = NSObject(), insets = NSDirectionalEdgeInsets.zero"))
        #expect(renamed.left.map(\.change) == ["left: UIGestureRecognizerSubclass", "left: UILabel"])
    }

    @Test("the renaming step changes no string or comment, raw or multi-line; an interpolation's code is renamed")
    func renamingLeavesTextAlone() throws {
        let source = ##"""
            // UIKit and UIColor in a comment
            /* UICollectionView /* nested UIView */ */
            let s = "UIKit and UIColor \(UIColor.red) and \("UIView") \(f(UIEdgeInsets.zero, "x)"))"
            let r = #"UIColor \#(UIScreen.main.scale) \(UIColor.red)"#
            let m = """
                UICollectionView \(UIView.self)
                """

            """##
        let text = try ported(source)
        #expect(
            text == ##"""
                // UIKit and UIColor in a comment
                /* UICollectionView /* nested UIView */ */
                let s = "UIKit and UIColor \(Color.red) and \("UIView") \(f(EdgeInsets.zero, "x)"))"
                let r = #"UIColor \#(Screen.main.scale) \(UIColor.red)"#
                let m = """
                    UICollectionView \(View.self)
                    """

                """##)
    }

    @Test("the porter's names are the UIKit and QuartzCore modules' names, alias for alias")
    func namesMatchTheModules() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var declared: [String: String] = [:]
        for module in ["UIKit/UIKit.swift", "QuartzCore/QuartzCore.swift"] {
            let text = try String(contentsOf: root.appendingPathComponent("Sources/\(module)"), encoding: .utf8)
            let pattern = try NSRegularExpression(pattern: #"public (?:typealias|func|let) ((?:UI|NS|CA)\w+)(?:<[^>]*>)?(?:\s*=\s*|\([\s\S]*?\{\s*)(\w+)"#)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                declared[String(text[Range(match.range(at: 1), in: text)!])] = String(text[Range(match.range(at: 2), in: text)!])
            }
        }
        #expect(declared == UIKitNames.renamed)
    }

    @Test("nothing inside strings and comments is rewritten")
    func stringsAndComments() throws {
        let source = """
            // delegate?.scrollViewDidScroll?(x) and @objc in a comment
            /* nested /* @objc */ #selector(f) */
            let s = "delegate?.scrollViewDidScroll?(x) @objc \\(value.map { "#selector(\\($0))" })"
            let r = #"@objc "quoted" \\#(x)"#
            let m = \"\"\"
                @objc override
                \"\"\"
            """
        let outcome = try port(source)
        #expect(outcome.files[0].ported == source)
        #expect(outcome.changes.isEmpty && outcome.left.isEmpty)
    }

    @Test("a file that is not valid Swift is refused, naming the line")
    func invalidSwift() {
        for (text, line, message) in [
            ("let a = 1\nlet s = \"open\n", 2, "a string literal that ends with its line"),
            ("func f() {\n  if x {\n}\n", 1, "a '{' that is never closed"),
            ("let x = 1\n/* never closed", 2, "a /* comment that is never closed"),
            ("let a = [1, 2)\n", 1, "a ')' that closes nothing open"),
        ] {
            #expect(
                throws: PortError(
                    path: "A.swift", line: line, message: "cannot read this file as Swift: \(message); it must compile with Swift before it can be ported")
            ) {
                try SwiftPort.port([(path: "A.swift", text: text)])
            }
        }
    }

    @Test("pathological nesting and size: refused or ported in linear time, never a crash")
    func pathological() throws {
        let deepStrings = String(repeating: "\"\\(", count: 1_000) + String(repeating: ")\"", count: 1_000)
        #expect(throws: PortError.self) { try SwiftPort.port([(path: "A.swift", text: "let s = " + deepStrings + "\n")]) }
        // A long call chain, many bodiless declarations, a deep bracket nest.
        let chain = "let x = a" + String(repeating: "()", count: 50_000) + ".collectionView?(c, layout: l, sizeForItemAt: i)\n"
        let ported = try SwiftPort.port([(path: "A.swift", text: chain)]).files[0].ported
        #expect(ported.hasSuffix(".collectionView(c, layout: l, sizeForItemAt: i)\n"))
        let bodiless = String(repeating: "protocol P\nclass C\nextension E\n", count: 20_000)
        #expect(try SwiftPort.port([(path: "A.swift", text: bodiless)]).files[0].ported == bodiless)
        let nest = String(repeating: "(", count: 100_000) + String(repeating: ")", count: 100_000)
        #expect(try SwiftPort.port([(path: "A.swift", text: nest)]).files[0].ported == nest)
    }

    @Test("random damage to the samples never traps: each is ported, or refused with a line")
    func fuzz() throws {
        let folder = Porting.here.appendingPathComponent("ObjC")
        let texts = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
            .map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
        var random = SeededRandom(seed: 17)
        let pieces = [
            "(", ")", "{", "}", "\"", "\"\"\"", "#", "@objc", "?(", "!(", ".", "/*", "*/", "`", "\\(", "#selector(",
            "override ", "optional ", "extension X {", "protocol P {", "\n", "é", "#\"", "?", "!",
        ]
        for round in 0..<300 {
            var bytes = Array(texts[round % texts.count].utf8)
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let at = Int(random.next() % UInt64(bytes.count + 1))
                if random.next() % 3 == 0, at < bytes.count {
                    bytes.removeSubrange(at..<min(bytes.count, at + Int(random.next() % 20)))
                } else {
                    bytes.insert(contentsOf: Array(pieces[Int(random.next() % UInt64(pieces.count))].utf8), at: at)
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                let outcome = try SwiftPort.port([(path: "F.swift", text: text)])
                // What was ported ports to itself.
                let again = try SwiftPort.port([(path: "F.swift", text: outcome.files[0].ported)])
                #expect(again.files[0].ported == outcome.files[0].ported, "round \(round) is not stable")
            } catch {
                #expect(error.line >= 1 && error.line <= text.split(separator: "\n", omittingEmptySubsequences: false).count)
            }
        }
    }
}
