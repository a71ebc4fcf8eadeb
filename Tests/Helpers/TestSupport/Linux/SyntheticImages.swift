import Foundation
public import WebPBridge

/// Images that tests generate themselves, so that suites run without the corpus.
public enum SyntheticImages {
    /// A smooth photo-like image: gradients plus a few soft shapes, so lossy
    /// codecs behave as on photos. Deterministic for a given `seed`.
    public static func photo(width: Int, height: Int, seed: Int = 1, alpha: Bool = false) -> Image {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        let s = Double(seed)
        for y in 0..<height {
            for x in 0..<width {
                let u = Double(x) / Double(max(width - 1, 1))
                let v = Double(y) / Double(max(height - 1, 1))
                let ripple = (sin((u * 7 + s) * 3.1) + cos((v * 5 + s) * 2.3)) * 0.25 + 0.5
                let index = (y * width + x) * 4
                pixels[index] = UInt8(clamping: Int((u * 0.7 + ripple * 0.3) * 255))
                pixels[index + 1] = UInt8(clamping: Int((v * 0.6 + ripple * 0.4) * 255))
                pixels[index + 2] = UInt8(clamping: Int(((1 - u) * 0.5 + ripple * 0.5) * 255))
                if alpha {
                    let dx = u - 0.5
                    let dy = v - 0.5
                    pixels[index + 3] = UInt8(clamping: Int(max(0, 1 - (dx * dx + dy * dy) * 4) * 255))
                }
            }
        }
        return Image(width: width, height: height, pixels: pixels, hasAlpha: alpha)
    }

    /// An animation of `frameCount` frames in which a square moves across a gradient.
    public static func animation(width: Int, height: Int, frameCount: Int, loopCount: Int = 0) -> AnimatedImage {
        let background = photo(width: width, height: height, seed: 3)
        let side = max(1, min(width, height) / 4)
        let frames = (0..<frameCount).map { frame -> AnimatedImage.Frame in
            var image = background
            let left = (width - side) * frame / max(frameCount - 1, 1)
            for y in 0..<side {
                for x in left..<(left + side) {
                    let index = (y * width + x) * 4
                    image.pixels[index] = 250
                    image.pixels[index + 1] = 30
                    image.pixels[index + 2] = 30
                }
            }
            return AnimatedImage.Frame(image: image, durationMilliseconds: 80 + frame * 10)
        }
        return AnimatedImage(canvasWidth: width, canvasHeight: height, frames: frames, loopCount: loopCount)
    }

    /// A photo whose left half brightens by `step` levels a frame while its
    /// right half is another photo every frame, so every frame has changes
    /// a lossy encoder must write and, beside them, changes small enough to
    /// be taken for none: a slow fade beside motion, where changed
    /// rectangles drift.
    public static func fade(width: Int, height: Int, frameCount: Int, step: Int) -> AnimatedImage {
        let base = photo(width: width, height: height, seed: 5)
        let frames = (0..<frameCount).map { frame -> AnimatedImage.Frame in
            var image = base
            let moving = photo(width: width, height: height, seed: 20 + frame * 3)
            for y in 0..<height {
                for x in 0..<width {
                    for channel in 0..<3 {
                        let index = (y * width + x) * 4 + channel
                        image.pixels[index] =
                            x < width / 2
                            ? UInt8(clamping: Int(image.pixels[index]) + frame * step) : moving.pixels[index]
                    }
                }
            }
            return AnimatedImage.Frame(image: image, durationMilliseconds: 80)
        }
        return AnimatedImage(canvasWidth: width, canvasHeight: height, frames: frames, loopCount: 0)
    }
}
