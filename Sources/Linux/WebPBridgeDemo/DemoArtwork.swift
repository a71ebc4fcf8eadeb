import Foundation
import WebPBridge

/// The demo site's generated artwork: text-free logos with soft, transparent
/// edges (PNG with alpha, as a designer exports them), an animated badge
/// (GIF), drawn with signed distances so edges are anti-aliased, and a
/// photographic animation made from one of the demo's photos; pure
/// functions of their inputs.
enum DemoArtwork {
    /// One logo: its file name and picture.
    struct Logo {
        var name: String
        var image: Image
    }

    /// The masthead emblem and three partner logos.
    static func logos() -> [Logo] {
        [
            Logo(name: "logo-masthead.png", image: masthead(size: 192)),
            Logo(name: "logo-partner-ring.png", image: ring(width: 240, height: 96)),
            Logo(name: "logo-partner-peaks.png", image: peaks(width: 240, height: 96)),
            Logo(name: "logo-partner-leaf.png", image: leaf(width: 240, height: 96)),
        ]
    }

    /// A 'live' badge: a sun whose rays turn, on a transparent background,
    /// 12 frames of 80 ms, looping forever.
    static func liveBadge(size: Int = 128, frameCount: Int = 12) -> AnimatedImage {
        let frames = (0..<frameCount).map { frame in
            AnimatedImage.Frame(
                image: sun(size: size, turn: Double(frame) / Double(frameCount)), durationMilliseconds: 80)
        }
        return AnimatedImage(canvasWidth: size, canvasHeight: size, frames: frames, loopCount: 0)
    }

    /// A photographic animation, as a newsroom's GIF of a scene: a slow
    /// zoom and pan (Ken Burns) over `photo`, `frameCount` frames of
    /// `width`×`height` at `frameMilliseconds` each, looping forever.
    ///
    /// The photo's centred crop of the output's aspect ratio is scaled once
    /// to 4/3 of the output's width (Lanczos), then each frame samples a
    /// window that narrows from the whole of it to 4/5 of it while its centre
    /// drifts, bilinearly, so the motion is smooth to the subpixel. A pure
    /// function of its inputs.
    static func panAndZoom(
        over photo: Image, width: Int = 480, height: Int = 270, frameCount: Int = 32, frameMilliseconds: Int = 100
    ) throws -> AnimatedImage {
        let aspect = Double(width) / Double(height)
        var cropWidth = Double(photo.width)
        var cropHeight = cropWidth / aspect
        if cropHeight > Double(photo.height) {
            cropHeight = Double(photo.height)
            cropWidth = cropHeight * aspect
        }
        let cut = crop(
            photo, x: (photo.width - Int(cropWidth)) / 2, y: (photo.height - Int(cropHeight)) / 2,
            width: max(1, Int(cropWidth)), height: max(1, Int(cropHeight)))
        let stageWidth = width * 4 / 3
        let stageHeight = height * 4 / 3
        let stage = try ImageResizer().resize(cut, width: stageWidth, height: stageHeight)
        let frames = (0..<frameCount).map { frame in
            let progress = frameCount > 1 ? Double(frame) / Double(frameCount - 1) : 0
            // Ease in and out, so the loop's turn is gentle.
            let eased = 0.5 - cos(progress * Double.pi) / 2
            let scale = 1 - 0.2 * eased
            let windowWidth = Double(stageWidth) * scale
            let windowHeight = Double(stageHeight) * scale
            let centreX = Double(stageWidth) * (0.5 + 0.06 * (eased - 0.5))
            let centreY = Double(stageHeight) * (0.5 - 0.04 * (eased - 0.5))
            let image = sample(
                stage, x: centreX - windowWidth / 2, y: centreY - windowHeight / 2, width: windowWidth,
                height: windowHeight, outputWidth: width, outputHeight: height)
            return AnimatedImage.Frame(image: image, durationMilliseconds: frameMilliseconds)
        }
        return AnimatedImage(canvasWidth: width, canvasHeight: height, frames: frames, loopCount: 0)
    }

    /// The rectangle of `image` at (`x`, `y`), row by row.
    private static func crop(_ image: Image, x: Int, y: Int, width: Int, height: Int) -> Image {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for row in 0..<height {
            let from = ((y + row) * image.width + x) * 4
            pixels.append(contentsOf: image.pixels[from..<(from + width * 4)])
        }
        return Image(width: width, height: height, pixels: pixels, hasAlpha: false)
    }

    /// The window of `image` at (`x`, `y`) of `width`×`height` (fractional)
    /// sampled bilinearly into `outputWidth`×`outputHeight`, opaque. Weights
    /// in 1/256ths; the columns' sources computed once per frame.
    private static func sample(
        _ image: Image, x: Double, y: Double, width: Double, height: Double, outputWidth: Int, outputHeight: Int
    ) -> Image {
        var pixels = [UInt8](repeating: 255, count: outputWidth * outputHeight * 4)
        let maxX = image.width - 1
        let maxY = image.height - 1
        var columns: [(left: Int, right: Int, weight: Int)] = []
        columns.reserveCapacity(outputWidth)
        for column in 0..<outputWidth {
            let sourceX = min(max(x + (Double(column) + 0.5) * width / Double(outputWidth) - 0.5, 0), Double(maxX))
            let left = Int(sourceX)
            columns.append((left * 4, min(left + 1, maxX) * 4, Int((sourceX - Double(left)) * 256)))
        }
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                for row in 0..<outputHeight {
                    let sourceY = min(
                        max(y + (Double(row) + 0.5) * height / Double(outputHeight) - 0.5, 0), Double(maxY))
                    let top = Int(sourceY)
                    let topRow = top * image.width * 4
                    let bottomRow = min(top + 1, maxY) * image.width * 4
                    let down = Int((sourceY - Double(top)) * 256)
                    var offset = row * outputWidth * 4
                    for (left, right, across) in columns {
                        for channel in 0..<3 {
                            let upper =
                                Int(source[topRow + left + channel]) * (256 - across)
                                + Int(source[topRow + right + channel]) * across
                            let lower =
                                Int(source[bottomRow + left + channel]) * (256 - across)
                                + Int(source[bottomRow + right + channel]) * across
                            target[offset + channel] = UInt8((upper * (256 - down) + lower * down + 32_768) >> 16)
                        }
                        offset += 4
                    }
                }
            }
        }
        return Image(width: outputWidth, height: outputHeight, pixels: pixels, hasAlpha: false)
    }

    // MARK: Drawings

    /// A sun rising over two hills inside a disc.
    private static func masthead(size: Int) -> Image {
        draw(width: size, height: size) { x, y in
            let centre = Double(size) / 2
            let radius = Double(size) * 0.46
            let disc = hypot(x - centre, y - centre) - radius
            guard disc < 1 else { return nil }
            let v = y / Double(size)
            var colour = mix((0.99, 0.62, 0.25), (0.55, 0.18, 0.55), v)  // dawn sky
            let sun = hypot(x - centre, y - centre * 1.05) - radius * 0.36
            colour = over(colour, (1.0, 0.93, 0.55), coverage(sun))
            let hill1 = y - (Double(size) * 0.68 + sin(x / Double(size) * 5.2) * Double(size) * 0.06)
            colour = over(colour, (0.13, 0.45, 0.36), coverage(-hill1))
            let hill2 = y - (Double(size) * 0.78 + cos(x / Double(size) * 4.1 + 1) * Double(size) * 0.05)
            colour = over(colour, (0.07, 0.30, 0.27), coverage(-hill2))
            return (colour, coverage(disc))
        }
    }

    /// A gradient ring with a soft glow.
    private static func ring(width: Int, height: Int) -> Image {
        draw(width: width, height: height) { x, y in
            let cx = Double(height) / 2 + 8
            let cy = Double(height) / 2
            let distance = hypot(x - cx, y - cy)
            let band = abs(distance - Double(height) * 0.3) - Double(height) * 0.09
            let bar = roundedBox(x - Double(width) * 0.64, y - cy, Double(width) * 0.3, Double(height) * 0.12, 10)
            let shape = min(band, bar)
            let glow = max(0, 1 - max(0, shape) / 10) * 0.35
            let alpha = max(coverage(shape), glow)
            guard alpha > 0 else { return nil }
            let colour = mix((0.16, 0.42, 0.85), (0.35, 0.80, 0.90), x / Double(width))
            return (colour, alpha)
        }
    }

    /// Three overlapping translucent peaks.
    private static func peaks(width: Int, height: Int) -> Image {
        draw(width: width, height: height) { x, y in
            let base = Double(height) * 0.85
            var colour = (0.0, 0.0, 0.0)
            var alpha = 0.0
            let peaks: [(Double, Double, (Double, Double, Double))] = [
                (0.22, 0.55, (0.85, 0.33, 0.22)), (0.42, 0.75, (0.95, 0.62, 0.18)), (0.62, 0.45, (0.55, 0.25, 0.60)),
            ]
            for (centre, heightShare, tint) in peaks {
                let apexX = Double(width) * centre
                let apexY = base - Double(height) * heightShare
                let slope = (base - apexY) / (Double(height) * 0.5)
                let edge = max(abs(x - apexX) * slope - (y - apexY), y - base) / sqrt(1 + slope * slope)
                let layer = coverage(edge) * 0.8
                colour = over(colour, tint, layer / max(alpha + layer * (1 - alpha), 1e-9))
                alpha = alpha + layer * (1 - alpha)
            }
            return alpha > 0 ? (colour, alpha) : nil
        }
    }

    /// A leaf: the intersection of two discs, with a vein.
    private static func leaf(width: Int, height: Int) -> Image {
        draw(width: width, height: height) { x, y in
            let cx = Double(width) * 0.3
            let cy = Double(height) / 2
            let offset = Double(height) * 0.22
            let radius = Double(height) * 0.42
            let shape = max(hypot(x - cx, y - cy - offset) - radius, hypot(x - cx, y - cy + offset) - radius)
            let stripe = roundedBox(x - Double(width) * 0.68, y - cy, Double(width) * 0.26, Double(height) * 0.3, 18)
            let alpha = max(coverage(shape), coverage(stripe) * 0.55)
            guard alpha > 0 else { return nil }
            var colour = mix((0.30, 0.70, 0.30), (0.10, 0.45, 0.25), (y - cy + radius) / (2 * radius))
            let vein = abs(y - cy) - 1.2
            colour = over(colour, (0.80, 0.95, 0.70), coverage(vein) * coverage(shape + 6))
            return (colour, alpha)
        }
    }

    /// A sun with eight rays turned by `turn` of a ray's spacing.
    private static func sun(size: Int, turn: Double) -> Image {
        draw(width: size, height: size) { x, y in
            let centre = Double(size) / 2
            let dx = x - centre
            let dy = y - centre
            let distance = hypot(dx, dy)
            let core = distance - Double(size) * 0.22
            let angle = atan2(dy, dx) + turn * (2 * Double.pi / 8)
            let rayWidth = abs(sin(angle * 4)) * distance - Double(size) * 0.035
            let rays = max(rayWidth, max(Double(size) * 0.28 - distance, distance - Double(size) * 0.46))
            let alpha = max(coverage(core), coverage(rays))
            guard alpha > 0 else { return nil }
            let colour = coverage(core) > 0.5 ? (1.0, 0.80, 0.20) : (0.98, 0.55, 0.12)
            return (colour, alpha)
        }
    }

    // MARK: Helpers

    typealias RGB = (Double, Double, Double)

    /// Renders `shader` at each pixel centre; `nil` is fully transparent.
    private static func draw(width: Int, height: Int, _ shader: (Double, Double) -> (RGB, Double)?) -> Image {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for row in 0..<height {
            for column in 0..<width {
                guard let (colour, alpha) = shader(Double(column) + 0.5, Double(row) + 0.5), alpha > 0 else { continue }
                let offset = (row * width + column) * 4
                pixels[offset] = byte(colour.0)
                pixels[offset + 1] = byte(colour.1)
                pixels[offset + 2] = byte(colour.2)
                pixels[offset + 3] = byte(alpha)
            }
        }
        return Image(width: width, height: height, pixels: pixels, hasAlpha: true)
    }

    /// How much of a pixel lies inside a shape whose signed distance is `distance`.
    private static func coverage(_ distance: Double) -> Double { min(max(0.5 - distance, 0), 1) }

    /// The signed distance to a box of half-size `halfWidth`×`halfHeight` with rounded corners.
    private static func roundedBox(
        _ x: Double, _ y: Double, _ halfWidth: Double, _ halfHeight: Double, _ radius: Double
    ) -> Double {
        let qx = abs(x) - halfWidth + radius
        let qy = abs(y) - halfHeight + radius
        return hypot(max(qx, 0), max(qy, 0)) + min(max(qx, qy), 0) - radius
    }

    private static func mix(_ a: RGB, _ b: RGB, _ t: Double) -> RGB {
        let t = min(max(t, 0), 1)
        return (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, a.2 + (b.2 - a.2) * t)
    }

    private static func over(_ below: RGB, _ above: RGB, _ amount: Double) -> RGB { mix(below, above, amount) }

    private static func byte(_ value: Double) -> UInt8 { UInt8(min(max(value * 255 + 0.5, 0), 255)) }
}
