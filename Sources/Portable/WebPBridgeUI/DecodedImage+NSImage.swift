// Apple-only (AppKit): compiled on macOS (`canImport(AppKit)` without UIKit, so not on Mac
// Catalyst); on Linux this file is empty, and `make portability` type-checks it against
// Tests/StandIns/AppKit.
#if canImport(AppKit) && !canImport(UIKit)
    import CoreGraphics
    public import AppKit
    public import WebPBridge

    extension DecodedImage {
        /// This image as an `NSImage` of its pixel size in points
        /// (`NSZeroSize`: the `CGImage`'s own size). An animation gives its
        /// first frame: AppKit has no frame-list image like UIKit's
        /// (`NSImageView` animates only a GIF bitmap representation).
        public func makeNSImage() -> NSImage? {
            makeCGImage().map { NSImage(cgImage: $0, size: .zero) }
        }
    }
#endif
