import Foundation

/// What a cell is showing itself as (`UICellConfigurationState`): its traits and whether it is
/// selected, highlighted, disabled, focused, being edited, swiped or expanded. A cell hands it to
/// ``CollectionViewCell/updateConfiguration(using:)`` and to its
/// ``CollectionViewCell/configurationUpdateHandler`` whenever one of them changes.
public struct CellConfigurationState: Equatable, @unchecked Sendable {
    /// The traits of the cell.
    public var traitCollection: TraitCollection
    public var isDisabled = false
    public var isHighlighted = false
    public var isSelected = false
    public var isFocused = false
    /// Whether the cell's item can be edited while the collection view is in editing mode
    /// (``CollectionView/isEditing`` and the delegate's `collectionView(_:canEditItemAt:)`).
    public var isEditing = false
    public var isSwiped = false
    public var isExpanded = false

    public init(traitCollection: TraitCollection) {
        self.traitCollection = traitCollection
    }

    public static func == (a: CellConfigurationState, b: CellConfigurationState) -> Bool {
        a.traitCollection.isEqual(b.traitCollection) && a.isDisabled == b.isDisabled && a.isHighlighted == b.isHighlighted
            && a.isSelected == b.isSelected && a.isFocused == b.isFocused && a.isEditing == b.isEditing
            && a.isSwiped == b.isSwiped && a.isExpanded == b.isExpanded
    }
}
