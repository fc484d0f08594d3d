// Swift Testing declares a cross-import overlay for `CoreGraphics`: a file that imports both
// `Testing` and `CoreGraphics` makes the compiler import `_Testing_CoreGraphics` too. Apple's
// platforms ship that module (it makes `CGImage` attachable); Linux's toolchain does not, so a
// test importing Trellis's `CoreGraphics` beside `Testing` would fail with "no such module
// '_Testing_CoreGraphics'". This module is that overlay, empty: there is no `CGImage` to attach.
