import Foundation

/// An object an ``ItemProvider`` can hand out as data (`NSItemProviderWriting`): the type
/// identifiers it writes, most faithful first, and its data in each.
public protocol ItemProviderWriting: AnyObject {
    /// The uniform type identifiers the class writes (`"public.utf8-plain-text"`, …).
    static var writableTypeIdentifiersForItemProvider: [String] { get }
    /// Hands the object's data in `typeIdentifier` to `completionHandler`; returns the load's
    /// progress, or `nil`.
    func loadData(
        withTypeIdentifier typeIdentifier: String,
        forItemProviderCompletionHandler completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) -> Progress?
}

/// An object an ``ItemProvider`` can make from data (`NSItemProviderReading`).
public protocol ItemProviderReading: AnyObject {
    /// The uniform type identifiers the class reads, most preferred first.
    static var readableTypeIdentifiersForItemProvider: [String] { get }
    /// The object the data of `typeIdentifier` makes.
    static func object(withItemProviderData data: Data, typeIdentifier: String) throws -> Self
}

/// Who may load a representation (`NSItemProviderRepresentationVisibility`). Headless, every
/// load is the process's own, so each is visible.
public enum ItemProviderRepresentationVisibility: Int, Sendable {
    case all = 0
    case team = 1
    case group = 2
    case ownProcess = 3
}

/// Why an ``ItemProvider`` could not load what was asked.
public struct ItemProviderError: Error, Equatable, CustomStringConvertible {
    /// The type identifier or class asked for.
    public let asked: String
    /// The type identifiers the provider has.
    public let registered: [String]

    public var description: String {
        "the item provider has no \(asked) (it has \(registered.isEmpty ? "nothing" : registered.joined(separator: ", ")))"
    }
}

/// What a drag carries (`NSItemProvider`): representations of one item by uniform type
/// identifier, loaded when a drop asks for them. Headless, loads run at once, on the calling
/// thread, and their completion handlers are called before the load method returns — so that a
/// test reads what a drop received without waiting on a queue.
///
/// ```swift
/// let provider = ItemProvider(object: "Gulf Fritillary" as NSString)
/// provider.canLoadObject(ofClass: NSString.self)        // true
/// provider.loadObject(ofClass: NSString.self) { text, _ in print(text as? NSString ?? "") }
/// ```
open class ItemProvider: NSObject, @unchecked Sendable {
    private struct Representation {
        let typeIdentifier: String
        let load: (@escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress?
    }

    private var representations: [Representation] = []
    /// Objects registered whole, kept so that a load of their own class gets them back as they
    /// are (as a load within one process does).
    private var objects: [AnyObject] = []

    /// A name for the item, for a drop that saves it as a file.
    open var suggestedName: String?

    /// A provider with nothing registered.
    public override init() {
        super.init()
    }

    /// A provider of `object` in every type it writes.
    public convenience init(object: any ItemProviderWriting) {
        self.init()
        registerObject(object, visibility: .all)
    }

    /// Registers `object` in every type identifier it writes.
    open func registerObject(_ object: any ItemProviderWriting, visibility: ItemProviderRepresentationVisibility) {
        objects.append(object)
        for type in Swift.type(of: object).writableTypeIdentifiersForItemProvider {
            representations.append(
                Representation(typeIdentifier: type) { handler in
                    object.loadData(withTypeIdentifier: type, forItemProviderCompletionHandler: handler)
                })
        }
    }

    /// Registers data of `typeIdentifier`, made by `loadHandler` when asked.
    open func registerDataRepresentation(
        forTypeIdentifier typeIdentifier: String, visibility: ItemProviderRepresentationVisibility,
        loadHandler: @escaping (@escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress?
    ) {
        representations.append(Representation(typeIdentifier: typeIdentifier, load: loadHandler))
    }

    /// The type identifiers registered, in the order registered.
    open var registeredTypeIdentifiers: [String] {
        var seen: Set<String> = []
        return representations.map(\.typeIdentifier).filter { seen.insert($0).inserted }
    }

    /// Whether data of `typeIdentifier` is registered.
    open func hasItemConformingToTypeIdentifier(_ typeIdentifier: String) -> Bool {
        representations.contains { $0.typeIdentifier == typeIdentifier }
    }

    /// Whether an object of `aClass` can be loaded: one registered of that class, or data of a
    /// type the class reads.
    open func canLoadObject(ofClass aClass: any ItemProviderReading.Type) -> Bool {
        objects.contains { Swift.type(of: $0) == aClass }
            || aClass.readableTypeIdentifiersForItemProvider.contains(where: hasItemConformingToTypeIdentifier)
    }

    /// Loads the data of `typeIdentifier` and hands it to `completionHandler` (an error when none
    /// is registered).
    @discardableResult
    open func loadDataRepresentation(
        forTypeIdentifier typeIdentifier: String, completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) -> Progress {
        let progress = Progress(totalUnitCount: 1)
        guard let representation = representations.first(where: { $0.typeIdentifier == typeIdentifier }) else {
            completionHandler(nil, ItemProviderError(asked: typeIdentifier, registered: registeredTypeIdentifiers))
            return progress
        }
        _ = representation.load { data, error in
            progress.completedUnitCount = 1
            completionHandler(data, error)
        }
        return progress
    }

    /// Loads an object of `aClass`: the registered object itself when it is of that class,
    /// otherwise one made from the first type the class reads that is registered.
    @discardableResult
    open func loadObject(
        ofClass aClass: any ItemProviderReading.Type,
        completionHandler: @escaping @Sendable ((any ItemProviderReading)?, (any Error)?) -> Void
    ) -> Progress {
        let progress = Progress(totalUnitCount: 1)
        if let object = objects.first(where: { Swift.type(of: $0) == aClass }) as? any ItemProviderReading {
            progress.completedUnitCount = 1
            completionHandler(object, nil)
            return progress
        }
        guard let type = aClass.readableTypeIdentifiersForItemProvider.first(where: hasItemConformingToTypeIdentifier) else {
            completionHandler(nil, ItemProviderError(asked: "\(aClass)", registered: registeredTypeIdentifiers))
            return progress
        }
        // The load runs before this method returns, on this thread.
        nonisolated(unsafe) let reading = aClass
        loadDataRepresentation(forTypeIdentifier: type) { data, error in
            progress.completedUnitCount = 1
            guard let data else { return completionHandler(nil, error) }
            do {
                completionHandler(try reading.object(withItemProviderData: data, typeIdentifier: type), nil)
            } catch {
                completionHandler(nil, error)
            }
        }
        return progress
    }
}

/// The uniform type identifiers of plain text, as text writes and reads them.
enum PlainText {
    static let utf8 = "public.utf8-plain-text"
    static let plain = "public.plain-text"
    static let text = "public.text"
}

/// Why data could not be read as text.
public struct ItemProviderDataError: Error, Equatable, CustomStringConvertible {
    public let typeIdentifier: String
    public var description: String { "the data of \(typeIdentifier) is not UTF-8 text" }
}

extension NSString: ItemProviderWriting, ItemProviderReading {
    public static var writableTypeIdentifiersForItemProvider: [String] { [PlainText.utf8] }
    public static var readableTypeIdentifiersForItemProvider: [String] { [PlainText.utf8, PlainText.plain, PlainText.text] }

    public func loadData(
        withTypeIdentifier typeIdentifier: String,
        forItemProviderCompletionHandler completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) -> Progress? {
        completionHandler(Data(String(self).utf8), nil)
        return nil
    }

    public static func object(withItemProviderData data: Data, typeIdentifier: String) throws -> Self {
        guard let text = String(data: data, encoding: .utf8), let made = NSString(string: text) as? Self else {
            throw ItemProviderDataError(typeIdentifier: typeIdentifier)
        }
        return made
    }
}
