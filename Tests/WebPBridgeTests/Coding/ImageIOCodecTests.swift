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

        /// The oriented-fit table (the rows ImageGeometryTests and the Linux decoder pass) through
        /// ImageIO itself: a JPEG written by ImageIO, an EXIF orientation inserted, decoded to fit.
        /// ImageIO rounds the shorter side itself: it may differ by one pixel from the table's.
        @Test(arguments: OrientedFitCase.all)
        func orientedFit(_ row: OrientedFitCase) throws {
            let stored = Image(width: row.stored.width, height: row.stored.height, filledWith: (255, 255, 255, 255))
            let jpeg = Self.insertingOrientation(
                row.orientation.rawValue, into: try codec.encode(stored, as: .jpeg(quality: 50)))
            let image = try codec.decodeStill(
                jpeg, format: .jpeg, maxWidth: row.box.width, maxHeight: row.box.height, limits: limits)
            let longer = (got: max(image.width, image.height), want: max(row.upright.width, row.upright.height))
            let shorter = (got: min(image.width, image.height), want: min(row.upright.width, row.upright.height))
            #expect((image.width >= image.height) == (row.upright.width >= row.upright.height))
            #expect(longer.got == longer.want && abs(shorter.got - shorter.want) <= 1, "\(image.width)x\(image.height)")
        }

        /// The scan limit is checked before ImageIO decodes (DecodingLimits.checkInput): a baseline
        /// JPEG (1 scan) decodes under a limit of 1 scan, the same JPEG with its scan repeated does not.
        @Test func aJPEGOverTheScanLimitIsRefusedBeforeImageIODecodes() throws {
            let jpeg = try codec.encode(Self.gradient(opaque: true), as: .jpeg(quality: 90))
            let oneScan = DecodingLimits(maxScans: 1)
            #expect(try codec.decode(jpeg, format: .jpeg, limits: oneScan).firstFrame.width == 64)
            let bytes = [UInt8](jpeg)
            let end = bytes.count - 2
            let lastScan = try #require((0..<end).last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
            let twoScans = Data(bytes[..<end] + bytes[lastScan..<end] + [0xFF, 0xD9])
            do {
                _ = try codec.decodeStill(twoScans, format: .jpeg, maxWidth: 32, maxHeight: nil, limits: oneScan)
                Issue.record("a JPEG of 2 scans passed a limit of 1")
            } catch {
                #expect(error.kind == .limitExceeded, "\(error)")
            }
        }

        /// A big-endian EXIF APP1 segment holding only an orientation, inserted after SOI.
        static func insertingOrientation(_ value: Int, into jpeg: Data) -> Data {
            let tiff: [UInt8] = [
                0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01,
                0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, UInt8(value), 0x00, 0x00,
                0x00, 0x00, 0x00, 0x00,
            ]
            let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
            let length = payload.count + 2
            return jpeg.prefix(2) + Data([0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload)
                + jpeg.dropFirst(2)
        }
    }
#endif
