@_exported import TrellisLayout
@_exported import TrellisRender
