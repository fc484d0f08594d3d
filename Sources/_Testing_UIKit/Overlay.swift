// Swift Testing declares a cross-import overlay for `UIKit`: a file that imports both `Testing`
// and `UIKit` makes the compiler import `_Testing_UIKit` too. Apple's platforms ship that module
// (it makes `UIImage` attachable); Linux's toolchain does not, so a test importing Trellis's
// `UIKit` beside `Testing` would fail with "no such module '_Testing_UIKit'". This module is that
// overlay, empty: there is no `UIImage` to attach.
