/// Reduces an RGBA image to a palette of at most ``maxColors`` opaque colours
/// plus, when needed, one transparent index — the palette a GIF frame holds.
///
/// Median cut (Heckbert, 1982) over a histogram of 5-bit-per-channel colours:
/// the box with the most pixels times its widest channel's range is split at
/// the pixel-weighted median of that channel, until there are `maxColors`
/// boxes; each palette entry is the exact mean of its box's pixels. Pixels
/// are then mapped to their nearest entry by their full 8-bit colour (through
/// a cache keyed by 6 bits a channel). No dithering: GIFs made here are for
/// flat generated artwork, where dithering only adds noise and bytes.
///
/// Pixels with alpha below 128 become the transparent index (GIF has 1-bit
/// alpha). Deterministic: the same image always gives the same palette.
struct MedianCutQuantizer {
    /// The largest number of opaque palette entries (255 leaves one index
    /// of a 256-entry table for transparency).
    var maxColors = 255

    /// A palette and every pixel's index into it.
    struct Result {
        /// RGB triples, `colors.count / 3` entries (the transparent entry included).
        var colors: [UInt8]
        /// One palette index per pixel, row by row.
        var indices: [UInt8]
        /// The index standing for transparent pixels, when any pixel is.
        var transparentIndex: Int?
    }

    private struct Bin {
        var count = 0
        var red = 0
        var green = 0
        var blue = 0
    }

    /// One box of the colour cube: a run of ``bins`` entries.
    private struct Box {
        var range: Range<Int>
        var pixels: Int
        var widestChannel: Int
        var widestSpread: Int
        var priority: Int { widestSpread > 0 ? pixels * widestSpread : 0 }
    }

    func quantize(_ image: Image) -> Result {
        let pixelCount = image.pixelCount
        var histogram = [Bin](repeating: Bin(), count: 1 << 15)
        var transparentPixels = 0
        image.pixels.withUnsafeBufferPointer { pixels in
            for pixel in 0..<pixelCount {
                let offset = pixel * 4
                if pixels[offset + 3] < 128 {
                    transparentPixels += 1
                    continue
                }
                let red = Int(pixels[offset])
                let green = Int(pixels[offset + 1])
                let blue = Int(pixels[offset + 2])
                let key = (red >> 3) << 10 | (green >> 3) << 5 | blue >> 3
                histogram[key].count += 1
                histogram[key].red += red
                histogram[key].green += green
                histogram[key].blue += blue
            }
        }
        // The occupied bins, each with its mean colour, are what boxes sort and split.
        var bins: [(key: Int, count: Int, rgb: SIMD3<Int>)] = []
        for (key, bin) in histogram.enumerated() where bin.count > 0 {
            bins.append((key, bin.count, SIMD3(bin.red, bin.green, bin.blue) / bin.count))
        }
        var boxes: [Box] = []
        if !bins.isEmpty { boxes.append(Self.box(bins.indices, in: bins)) }
        while boxes.count < max(1, maxColors) {
            guard let (position, box) = boxes.enumerated().max(by: { $0.element.priority < $1.element.priority }),
                box.priority > 0
            else { break }
            let channel = box.widestChannel
            bins[box.range].sort { ($0.rgb[channel], $0.key) < ($1.rgb[channel], $1.key) }
            var seen = 0
            var split = box.range.lowerBound + 1
            for index in box.range {
                seen += bins[index].count
                if seen * 2 >= box.pixels {
                    split = min(max(index + 1, box.range.lowerBound + 1), box.range.upperBound - 1)
                    break
                }
            }
            boxes[position] = Self.box(box.range.lowerBound..<split, in: bins)
            boxes.append(Self.box(split..<box.range.upperBound, in: bins))
        }

        var colors: [UInt8] = []
        var palette: [SIMD3<Int>] = []
        for box in boxes {
            var sum = SIMD3<Int>.zero
            var count = 0
            for bin in bins[box.range] {
                let exact = histogram[bin.key]
                sum &+= SIMD3(exact.red, exact.green, exact.blue)
                count += exact.count
            }
            let mean = (sum &+ SIMD3(repeating: count / 2)) / max(count, 1)
            palette.append(mean)
            colors += [UInt8(clamping: mean.x), UInt8(clamping: mean.y), UInt8(clamping: mean.z)]
        }
        let transparentIndex = transparentPixels > 0 ? palette.count : nil
        if transparentIndex != nil { colors += [0, 0, 0] }

        var cache = [Int16](repeating: -1, count: 1 << 18)
        var indices = [UInt8](repeating: UInt8(transparentIndex ?? 0), count: pixelCount)
        let channels = palette.flatMap { [$0.x, $0.y, $0.z] }
        image.pixels.withUnsafeBufferPointer { pixels in
            channels.withUnsafeBufferPointer { channels in
                for pixel in 0..<pixelCount {
                    let offset = pixel * 4
                    if pixels[offset + 3] < 128 { continue }
                    let (red, green, blue) = (Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2]))
                    let key = (red >> 2) << 12 | (green >> 2) << 6 | blue >> 2
                    if cache[key] < 0 {
                        cache[key] = Int16(Self.nearest(red: red, green: green, blue: blue, in: channels))
                    }
                    indices[pixel] = UInt8(cache[key])
                }
            }
        }
        return Result(colors: colors, indices: indices, transparentIndex: transparentIndex)
    }

    /// The box over `range`, with its pixel count and widest channel.
    private static func box(_ range: Range<Int>, in bins: [(key: Int, count: Int, rgb: SIMD3<Int>)]) -> Box {
        var low = SIMD3(repeating: Int.max)
        var high = SIMD3(repeating: Int.min)
        var pixels = 0
        for bin in bins[range] {
            low = pointwiseMin(low, bin.rgb)
            high = pointwiseMax(high, bin.rgb)
            pixels += bin.count
        }
        let spread = high &- low
        // Green counts most to the eye, blue least (the luma weights, roughly).
        let weighted = SIMD3(spread.x * 3, spread.y * 4, spread.z * 2)
        let channel = weighted.y >= weighted.x && weighted.y >= weighted.z ? 1 : (weighted.x >= weighted.z ? 0 : 2)
        return Box(
            range: range, pixels: pixels, widestChannel: channel, widestSpread: range.count > 1 ? weighted[channel] : 0)
    }

    /// The index of the palette entry closest to a colour (squared RGB
    /// distance; the first of equals), `channels` holding each entry's red,
    /// green and blue in turn. Scalar arithmetic over a buffer: it runs for
    /// every entry of up to 2^18 colours, and a build without optimisation
    /// (the sanitizers') would otherwise call into the runtime for each
    /// entry's iteration and SIMD operation.
    private static func nearest(red: Int, green: Int, blue: Int, in channels: UnsafeBufferPointer<Int>) -> Int {
        var best = 0
        var bestDistance = Int.max
        var offset = 0
        while offset + 2 < channels.count {
            let (dr, dg, db) = (channels[offset] - red, channels[offset + 1] - green, channels[offset + 2] - blue)
            let distance = dr * dr + dg * dg + db * db
            if distance < bestDistance {
                bestDistance = distance
                best = offset / 3
            }
            offset += 3
        }
        return best
    }
}
