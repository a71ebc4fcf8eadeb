// Apple-only (CoreGraphics): compiled where `canImport(CoreGraphics)` holds; on Linux this file is
// empty, and `make portability` type-checks it against Tests/StandIns/CoreGraphics.
#if canImport(CoreGraphics)
    public import CoreGraphics
    import Foundation
    public import WebPBridge

    extension WebPBridge.Image {
        /// These pixels as a `CGImage`: 8 bits a component, R G B A in
        /// memory, straight alpha (`CGImageAlphaInfo.last`, as ``Image``
        /// holds it: no premultiplying pass) or, for an opaque image, the
        /// alpha byte skipped (`.noneSkipLast`, so the compositor can treat
        /// it as opaque). sRGB. The pixels are copied once into the image's
        /// data provider. `nil` if CoreGraphics refuses the image.
        public func makeCGImage() -> CGImage? {
            let alpha: CGImageAlphaInfo = hasAlpha && !isOpaque ? .last : .noneSkipLast
            guard let space = CGColorSpace(name: CGColorSpace.sRGB),
                let provider = CGDataProvider(data: Data(pixels) as CFData)
            else { return nil }
            return CGImage(
                width: width, height: height, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: bytesPerRow,
                space: space, bitmapInfo: CGBitmapInfo(rawValue: alpha.rawValue), provider: provider, decode: nil,
                shouldInterpolate: true, intent: .defaultIntent)
        }
    }

    extension DecodedImage {
        /// The still image, or an animation's first frame, as a `CGImage`
        /// (``WebPBridge/Image/makeCGImage()``).
        public func makeCGImage() -> CGImage? { firstFrame.makeCGImage() }
    }
#endif
