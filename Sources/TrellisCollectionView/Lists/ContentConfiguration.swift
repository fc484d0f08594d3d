import Foundation

/// The state a configuration is updated for (`UIConfigurationState`): a cell's
/// ``CellConfigurationState`` is one.
public protocol ConfigurationState {
    /// The traits of the view whose state it is.
    var traitCollection: TraitCollection { get set }
}

extension CellConfigurationState: ConfigurationState {}

/// What a view shows, apart from the view that shows it (`UIContentConfiguration`): a value a
/// cell keeps as its ``CollectionViewCell/contentConfiguration`` and makes its content view from.
public protocol ContentConfiguration {
    /// A new view that shows this configuration.
    func makeContentView() -> View & ContentView
    /// This configuration as it shows in `state` (selected, highlighted…): what a cell applies
    /// whenever its state changes, while it ``CollectionViewCell/automaticallyUpdatesContentConfiguration``.
    func updated(for state: ConfigurationState) -> Self
}

/// A view made from a content configuration (`UIContentView`): given a new configuration of its
/// kind, it shows it.
public protocol ContentView: AnyObject {
    /// The configuration it shows.
    var configuration: ContentConfiguration { get set }
    /// Whether it can show `configuration` (a cell makes a new view otherwise). The default:
    /// when it is of the same type as the one it shows.
    func supports(_ configuration: ContentConfiguration) -> Bool
}

extension ContentView {
    public func supports(_ configuration: ContentConfiguration) -> Bool {
        type(of: configuration) == type(of: self.configuration)
    }
}
