// What the build that made the program knew of its source: the commit it was built from, set by
// Packaging/build-binary through the TRELLIS_COMMIT environment variable (see Package.swift).
#ifndef TRELLIS_BUILD_INFO_H
#define TRELLIS_BUILD_INFO_H

/// The commit the program was built from (`abc123def456`, `abc123def456-modified`), or an empty
/// string for a build that was not told (a plain `swift build`).
const char *trellis_build_commit(void);

#endif
