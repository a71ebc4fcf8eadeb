// Apple-only (UIKit): compiled where `canImport(UIKit)` holds (iOS, iPadOS, Mac Catalyst); on Linux
// this file is empty, and `make portability` type-checks it against Tests/StandIns/UIKit.
#if canImport(UIKit)
    import CoreGraphics
    public import UIKit
    public import WebPBridge

    extension DecodedImage {
        /// This image as a `UIImage` of `scale` pixels per point (a
        /// screen's scale: the image is `width / scale` points wide).
        ///
        /// A still image is upright (the decoders apply orientation), so its
        /// orientation is `.up`. An animation becomes an animated `UIImage`
        /// whose frames keep their own delays: `UIImage.animatedImage(with:duration:)`
        /// shows every frame for the same time, so each frame is repeated
        /// per ``AnimationTimeline`` (references, not copies). Each frame's
        /// pixels are copied once into its `CGImage`. `nil` if CoreGraphics
        /// refuses a frame.
        public func makeUIImage(scale: CGFloat = 1) -> UIImage? {
            switch self {
            case .still(let image):
                return image.makeCGImage().map { UIImage(cgImage: $0, scale: scale, orientation: .up) }
            case .animated(let animation):
                var frames: [UIImage] = []
                frames.reserveCapacity(animation.frames.count)
                for frame in animation.frames {
                    guard let cgImage = frame.image.makeCGImage() else { return nil }
                    frames.append(UIImage(cgImage: cgImage, scale: scale, orientation: .up))
                }
                let timeline = AnimationTimeline(delaysMilliseconds: animation.frames.map(\.durationMilliseconds))
                return UIImage.animatedImage(
                    with: timeline.frameIndices.map { frames[$0] },
                    duration: TimeInterval(timeline.totalMilliseconds) / 1_000)
            }
        }
    }
#endif
