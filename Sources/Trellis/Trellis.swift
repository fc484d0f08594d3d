@_exported import TrellisLayout
@_exported import TrellisCollectionView
@_exported import TrellisRender
