@_exported import TrellisCollectionView
@_exported import TrellisGrid
@_exported import TrellisLayouts
@_exported import TrellisRender
@_exported import TrellisSQL
@_exported import TrellisSources
// `import Trellis` is all a user writes, as `import UIKit` is: the collection view and its
// layouts (which re-export Foundation), the grid, the renderers and their text leaf.
@_exported import TrellisText
@_exported import TrellisWorkbook
