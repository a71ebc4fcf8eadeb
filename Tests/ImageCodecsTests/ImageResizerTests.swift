import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

@Suite("Image resizing", .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct ImageResizerTests {
    @Test(
        "fitting size keeps the aspect ratio and never upscales",
        arguments: [
            (2560, 1700, 750, nil, 750, 498),
            (2560, 1700, nil, 850, 1280, 850),
            (2560, 1700, 750, 100, 151, 100),
            (600, 400, 750, nil, 600, 400),
            (600, 400, nil, nil, 600, 400),
            (1000, 10, 10, 10, 10, 1),
            (1, 5000, 750, 750, 1, 750),
            (768, 512, 384, 256, 384, 256),
        ] as [(Int, Int, Int?, Int?, Int, Int)])
    func fittingSize(width: Int, height: Int, maxWidth: Int?, maxHeight: Int?, expectedWidth: Int, expectedHeight: Int)
    {
        let size = ImageResizer.fittingSize(width: width, height: height, maxWidth: maxWidth, maxHeight: maxHeight)
        #expect(size.width == expectedWidth && size.height == expectedHeight)
    }

    @Test(
        "a region of the result is exactly those pixels of the whole result, made in one pass",
        arguments: [
            (97, 61, 300, 200, 40..<260, 10..<190),  // enlarged, then cropped
            (640, 480, 90, 60, 0..<90, 15..<45),  // reduced, then cropped
            (64, 48, 64, 48, 8..<56, 0..<48),  // a crop alone
        ] as [(Int, Int, Int, Int, Range<Int>, Range<Int>)])
    func region(
        width: Int, height: Int, toWidth: Int, toHeight: Int, columns: Range<Int>, rows: Range<Int>
    ) throws {
        let image = SyntheticImages.photo(width: width, height: height, alpha: true)
        for filter in [ImageResizer.Filter.lanczos3, .areaAverage] {
            let resizer = ImageResizer(filter: filter)
            let whole = try resizer.resize(image, width: toWidth, height: toHeight)
            let region = try resizer.resize(image, width: toWidth, height: toHeight, columns: columns, rows: rows)
            #expect(region == whole.cropped(columns: columns, rows: rows))
        }
    }

    @Test func aRegionOutsideTheResultIsRefused() {
        let image = Image(width: 8, height: 8, filledWith: (1, 2, 3, 255))
        #expect(throws: ImageCodecError.self) {
            try ImageResizer().resize(image, width: 16, height: 16, columns: 8..<17, rows: 0..<16)
        }
        #expect(throws: ImageCodecError.self) {
            try ImageResizer().resize(image, width: 16, height: 16, columns: 0..<0, rows: 0..<16)
        }
    }

    @Test("a solid colour stays exactly that colour", arguments: [ImageResizer.Filter.lanczos3, .areaAverage])
    func solid(filter: ImageResizer.Filter) throws {
        let image = Image(width: 97, height: 61, filledWith: (200, 100, 50, 255))
        let resized = try ImageResizer(filter: filter).resize(image, width: 30, height: 19)
        #expect(resized.width == 30 && resized.height == 19)
        #expect(resized.pixels == Image(width: 30, height: 19, filledWith: (200, 100, 50, 255)).pixels)
    }

    @Test(
        "an opaque image declared with alpha resizes exactly as without (the unpremultiplied path)",
        arguments: [ImageResizer.Filter.lanczos3, .areaAverage])
    func opaqueFastPath(filter: ImageResizer.Filter) throws {
        let opaque = SyntheticImages.photo(width: 97, height: 61)
        var declared = opaque
        declared.hasAlpha = true
        let plain = try ImageResizer(filter: filter).resize(opaque, width: 41, height: 27)
        let premultiplied = try ImageResizer(filter: filter).resize(declared, width: 41, height: 27)
        let largest = zip(plain.pixels, premultiplied.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(largest <= 1)
        #expect(premultiplied.hasAlpha && premultiplied.isOpaque)
    }

    @Test("a transparent pixel lends no colour to its opaque neighbours")
    func transparentNeighbours() throws {
        // Red opaque on the left, green fully transparent on the right: premultiplying keeps the
        // green out of every pixel that is not transparent.
        var pixels: [UInt8] = []
        for _ in 0..<8 {
            for x in 0..<16 { pixels += x < 8 ? [255, 0, 0, 255] : [0, 255, 0, 0] }
        }
        let image = Image(width: 16, height: 8, pixels: pixels, hasAlpha: true)
        let resized = try ImageResizer().resize(image, width: 5, height: 3)
        for index in stride(from: 0, to: resized.pixels.count, by: 4) where resized.pixels[index + 3] > 0 {
            #expect(resized.pixels[index + 1] == 0)
        }
    }

    @Test("area averaging by exactly 2 is the mean of each 2×2 block")
    func areaAverage() throws {
        let pixels: [UInt8] = [
            0, 0, 0, 255, 100, 100, 100, 255,
            200, 200, 200, 255, 100, 100, 100, 255,
        ]
        let resized = try ImageResizer(filter: .areaAverage).resize(
            Image(width: 2, height: 2, pixels: pixels, hasAlpha: false), width: 1, height: 1)
        #expect(resized.pixels == [100, 100, 100, 255])
    }

    @Test(
        "transparent neighbours do not darken edges (premultiplied alpha)",
        arguments: [ImageResizer.Filter.lanczos3, .areaAverage])
    func noDarkHalo(filter: ImageResizer.Filter) throws {
        // White opaque left half, transparent *black* right half.
        var image = Image(width: 64, height: 8, filledWith: (0, 0, 0, 0))
        for y in 0..<8 {
            for x in 0..<32 {
                let offset = (y * 64 + x) * 4
                image.pixels.replaceSubrange(offset..<(offset + 4), with: [255, 255, 255, 255])
            }
        }
        let resized = try ImageResizer(filter: filter).resize(image, width: 21, height: 3)
        for index in stride(from: 0, to: resized.pixels.count, by: 4) where resized.pixels[index + 3] > 0 {
            #expect(resized.pixels[index] >= 254, "pixel \(index / 4) is \(Array(resized.pixels[index..<(index + 4)]))")
        }
        #expect(resized.pixels.contains { $0 > 0 && $0 < 255 }, "the edge is partly transparent")
    }

    @Test("downscaling a photo keeps it close to an area-averaged reference")
    func photoQuality() throws {
        let image = SyntheticImages.photo(width: 400, height: 300)
        let lanczos = try ImageResizer().resize(image, width: 133, height: 100)
        let area = try ImageResizer(filter: .areaAverage).resize(image, width: 133, height: 100)
        #expect(try SSIM.luma(lanczos, area) > 0.98)
    }

    @Test("upscaling works too, and a same-size resize is the identity")
    func upscaleAndIdentity() throws {
        let image = SyntheticImages.photo(width: 20, height: 10, alpha: true)
        #expect(try ImageResizer().resize(image, width: 20, height: 10) == image)
        let larger = try ImageResizer().resize(image, width: 45, height: 23)
        #expect(larger.width == 45 && larger.height == 23 && larger.hasAlpha)
    }

    @Test("a non-positive target size is an invalid argument")
    func invalidSize() {
        let error = #expect(throws: ImageCodecError.self) {
            try ImageResizer().resize(Image(width: 2, height: 2, filledWith: (1, 2, 3, 4)), width: 0, height: 5)
        }
        #expect(error?.kind == .invalidArgument)
    }
}
