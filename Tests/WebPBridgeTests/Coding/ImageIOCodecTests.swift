// Apple platforms only (ImageIO): run by .github/workflows/apple.yml on macOS, never on Linux.
#if canImport(ImageIO)
    import Foundation
    import WebPBridge
    import TestTraits
    import Testing

    /// The ImageIO adapter round-trips through the codec protocol, and
    /// honours the portable limits and the target size.
    @Suite(.timeLimit(.suiteBound))
    struct ImageIOCodecTests {
        let codec = ImageIOCodec()
        let limits = DecodingLimits.default

        /// A 64×48 gradient, opaque or with an alpha ramp.
        static func gradient(opaque: Bool) -> Image {
            var pixels: [UInt8] = []
            for y in 0..<48 {
                for x in 0..<64 {
                    pixels += [UInt8(x * 4), UInt8(y * 5), 128, opaque ? 255 : UInt8(x * 4)]
                }
            }
            return Image(width: 64, height: 48, pixels: pixels, hasAlpha: !opaque)
        }

        @Test func pngRoundTripsExactly() throws {
            let image = Self.gradient(opaque: false)
            let png = try codec.encode(image, as: .png(compressionLevel: 6))
            #expect(try ImageFormat.sniff(png) == .png)
            let decoded = try codec.decode(png, format: .png, limits: limits).firstFrame
            #expect(decoded.width == 64 && decoded.height == 48)
            // Alpha survives; colour within rounding of the premultiplied round trip.
            #expect(decoded.pixels[3] == image.pixels[3])
            #expect(!decoded.isOpaque)
        }

        @Test func jpegIsOpaqueAndDownsamplesToFit() throws {
            let jpeg = try codec.encode(Self.gradient(opaque: true), as: .jpeg(quality: 90))
            #expect(try ImageFormat.sniff(jpeg) == .jpeg)
            let small = try codec.decodeStill(jpeg, format: .jpeg, maxWidth: 32, maxHeight: nil, limits: limits)
            #expect(small.width <= 32 && small.height <= 24 && small.isOpaque)
        }

        @Test func refusesAnImageOverThePixelLimit() throws {
            let png = try codec.encode(Self.gradient(opaque: true), as: .png(compressionLevel: 1))
            #expect(throws: ImageCodecError.self) {
                try codec.decode(png, format: .png, limits: DecodingLimits(maxPixelsPerFrame: 100))
            }
        }

        @Test func garbageIsACorruptError() {
            #expect(throws: ImageCodecError.self) {
                try codec.decode(Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]), format: .png, limits: limits)
            }
        }
    }
#endif
