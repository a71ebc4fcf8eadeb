/// A rectangle of pixels on an animation canvas.
struct PixelRect: Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The part of `self` inside a `width`×`height` canvas (possibly empty).
    func clamped(toWidth canvasWidth: Int, height canvasHeight: Int) -> PixelRect {
        let left = min(max(x, 0), canvasWidth)
        let top = min(max(y, 0), canvasHeight)
        let right = min(max(x + width, 0), canvasWidth)
        let bottom = min(max(y + height, 0), canvasHeight)
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}

/// The RGBA canvas on which animation frames are composited, shared by the
/// APNG and GIF decoders. It starts fully transparent (as browsers start an
/// animation, ignoring a GIF's background colour).
struct CompositingCanvas {
    let width: Int
    let height: Int
    private(set) var pixels: [UInt8]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// The canvas as an image.
    func image(hasAlpha: Bool) -> Image {
        Image(width: width, height: height, pixels: pixels, hasAlpha: hasAlpha)
    }

    /// A copy of the pixels in `rect` (which must lie inside the canvas).
    func copy(_ rect: PixelRect) -> [UInt8] {
        var region = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
        let rowBytes = rect.width * 4
        pixels.withUnsafeBufferPointer { canvas in
            region.withUnsafeMutableBufferPointer { out in
                // Empty when the rect is: nothing to copy.
                guard let out = out.baseAddress, let canvas = canvas.baseAddress else { return }
                for row in 0..<rect.height {
                    let from = ((rect.y + row) * width + rect.x) * 4
                    out.advanced(by: row * rowBytes).update(from: canvas.advanced(by: from), count: rowBytes)
                }
            }
        }
        return region
    }

    /// Replaces the pixels in `rect` with `source` (`rect.width * 4` bytes a row).
    mutating func replace(_ rect: PixelRect, with source: UnsafeBufferPointer<UInt8>) {
        let rowBytes = rect.width * 4
        let canvasWidth = width
        pixels.withUnsafeMutableBufferPointer { canvas in
            guard let canvas = canvas.baseAddress, let source = source.baseAddress else { return }
            for row in 0..<rect.height {
                let to = ((rect.y + row) * canvasWidth + rect.x) * 4
                canvas.advanced(by: to).update(from: source.advanced(by: row * rowBytes), count: rowBytes)
            }
        }
    }

    /// Sets the pixels in `rect` to transparent black.
    mutating func clear(_ rect: PixelRect) {
        let rowBytes = rect.width * 4
        let canvasWidth = width
        pixels.withUnsafeMutableBufferPointer { canvas in
            guard let canvas = canvas.baseAddress else { return }
            for row in 0..<rect.height {
                let to = ((rect.y + row) * canvasWidth + rect.x) * 4
                canvas.advanced(by: to).update(repeating: 0, count: rowBytes)
            }
        }
    }

    /// Composites `source` (straight alpha, `rect.width * 4` bytes a row)
    /// over the pixels in `rect`, with the APNG specification's `OVER`
    /// operator in 8-bit integer arithmetic.
    mutating func blendOver(_ rect: PixelRect, with source: UnsafeBufferPointer<UInt8>) {
        let canvasWidth = width
        pixels.withUnsafeMutableBufferPointer { canvas in
            for row in 0..<rect.height {
                var to = ((rect.y + row) * canvasWidth + rect.x) * 4
                var from = row * rect.width * 4
                for _ in 0..<rect.width {
                    defer {
                        to += 4
                        from += 4
                    }
                    let sourceAlpha = Int(source[from + 3])
                    if sourceAlpha == 0 { continue }
                    let destinationAlpha = Int(canvas[to + 3])
                    if sourceAlpha == 255 || destinationAlpha == 0 {
                        canvas[to] = source[from]
                        canvas[to + 1] = source[from + 1]
                        canvas[to + 2] = source[from + 2]
                        canvas[to + 3] = source[from + 3]
                        continue
                    }
                    let sourceWeight = sourceAlpha * 255
                    let destinationWeight = (255 - sourceAlpha) * destinationAlpha
                    let total = sourceWeight + destinationWeight
                    for channel in 0..<3 {
                        let mixed =
                            Int(source[from + channel]) * sourceWeight
                            + Int(canvas[to + channel]) * destinationWeight
                        canvas[to + channel] = UInt8((mixed + total / 2) / total)
                    }
                    canvas[to + 3] = UInt8((total + 127) / 255)
                }
            }
        }
    }
}
