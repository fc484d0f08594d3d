@_exported import TrellisLayout
@_exported import TrellisCollectionView
@_exported import TrellisGrid
@_exported import TrellisRender
