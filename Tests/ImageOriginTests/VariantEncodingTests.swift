import Foundation
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// Graphics are tried lossless as well as lossy and the smaller kept;
/// photos stay lossy; generated images, so it runs without the corpus.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct VariantEncodingTests {
    static let sourceSize = ProcessingPipeline(
        steps: [.imageView2(ImageView2(mode: 0, format: .webp))], ignoresErrors: false)

    static func width(_ width: Int, format: ImageFormat = .webp) -> ProcessingPipeline {
        ProcessingPipeline(
            steps: [.imageView2(ImageView2(mode: 2, width: width, format: format))], ignoresErrors: false)
    }

    /// Flat rectangles in three colours with hard edges: a logo or a chart.
    static func graphic(width: Int, height: Int) -> Image {
        var image = Image(width: width, height: height, filledWith: (255, 255, 255, 255))
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 4
                if x < width / 3 {
                    image.pixels.replaceSubrange(index..<(index + 4), with: [200, 30, 40, 255])
                } else if y > height / 2 {
                    image.pixels.replaceSubrange(index..<(index + 4), with: [20, 60, 200, 255])
                }
            }
        }
        return image
    }

    @Test func photosAndGraphicsAreToldApart() throws {
        let photo = SyntheticImages.photo(width: 200, height: 150)
        let graphic = Self.graphic(width: 200, height: 150)
        #expect(VariantEncoding.content(of: photo, sourceFormat: .jpeg) == .photo)
        #expect(VariantEncoding.content(of: graphic, sourceFormat: .jpeg) == .photo)
        #expect(VariantEncoding.content(of: photo, sourceFormat: .gif) == .graphic)
        #expect(VariantEncoding.content(of: graphic, sourceFormat: .png) == .graphic)
        #expect(VariantEncoding.content(of: OriginFixture.noise(width: 200, height: 150), sourceFormat: .png) == .photo)
        #expect(
            VariantEncoding.content(of: OriginFixture.noise(width: 64, height: 64), sourceFormat: .webp) == .graphic)
        var logo = OriginFixture.noise(width: 200, height: 150)
        for index in stride(from: 0, to: logo.pixels.count / 2, by: 4) { logo.pixels[index + 3] = 0 }
        #expect(VariantEncoding.content(of: logo, sourceFormat: .png) == .photo, "RGB under transparency differs")
        for index in 0..<(logo.pixels.count / 2) { logo.pixels[index] = 0 }
        #expect(VariantEncoding.content(of: logo, sourceFormat: .png) == .graphic, "a transparent half is a flat fill")
    }

    /// Two colours in 4-pixel squares: hard edges everywhere, which lossy
    /// WebP blurs and spends bytes on, and PNG and lossless store in a few.
    static func checkerboard(width: Int, height: Int) -> Image {
        var image = Image(width: width, height: height, filledWith: (250, 250, 250, 255))
        for y in 0..<height {
            for x in 0..<width where (x / 4 + y / 4) % 2 == 0 {
                image.pixels.replaceSubrange((y * width + x) * 4..<((y * width + x) * 4 + 3), with: [30, 90, 160])
            }
        }
        return image
    }

    /// The 390 B PNG that became a 458 B WebP: a small graphic whose
    /// lossy WebP is bigger than its PNG comes back no bigger than the PNG.
    @Test func aSmallGraphicIsNeverBiggerThanItsPNG() throws {
        let image = Self.checkerboard(width: 96, height: 64)
        let png = try PNGEncoder().encode(image)
        let lossy = try WebPEncoder(options: .init(quality: 80)).encode(image)
        var losslessOptions = WebPEncoder.Options(lossless: true)
        losslessOptions.exact = false
        let lossless = try WebPEncoder(options: losslessOptions).encode(image)
        try #require(lossy.count > png.count, "the fixture must be one lossy WebP makes bigger")

        let output = try ImageTransformer().transform(png, pipeline: Self.sourceSize)
        #expect(output.data.count <= min(png.count, lossless.count))
        let before = try ImageTransformer(configuration: Self.lossyOnly).transform(png, pipeline: Self.sourceSize)
        #expect(output.data.count <= before.data.count)
        print(
            "\(png.count) B PNG: lossy \(lossy.count) B, lossless \(lossless.count) B → \(output.data.count) B")
    }

    /// At another size the source cannot be returned: the smaller of lossy
    /// and lossless, and lossless is exact.
    @Test func aResizedGraphicKeepsTheSmallerOfLossyAndLossless() throws {
        let png = try PNGEncoder().encode(Self.graphic(width: 400, height: 300))
        let after = try ImageTransformer().transform(png, pipeline: Self.width(200))
        let before = try ImageTransformer(configuration: Self.lossyOnly).transform(png, pipeline: Self.width(200))
        #expect(after.format == .webp && !after.isSource)
        #expect(after.data.count < before.data.count)
        #expect(try WebPFeatures(after.data).compression == .lossless)
        #expect(try WebPDecoder().decode(after.data).width == 200)
    }

    /// A graphic larger than ``VariantEncoding/maxLosslessTryPixels`` is
    /// written lossy only, since its lossless try could cost past the work
    /// budget (docs/work-budget.md); one at the bound is still tried, and
    /// the cost model asks the same question from the size and the format.
    @Test func aGraphicPastTheLosslessTrysSizeIsWrittenLossy() throws {
        let bound = VariantEncoding.maxLosslessTryPixels
        #expect(VariantEncoding.mayTryLossless(pixels: bound, sourceFormat: .png))
        #expect(!VariantEncoding.mayTryLossless(pixels: bound + 1, sourceFormat: .png))
        #expect(!VariantEncoding.mayTryLossless(pixels: 100, sourceFormat: .jpeg))
        /// Two flat colours in bands, made a row at a time.
        func bands(width: Int, height: Int) -> Image {
            var image = Image(width: width, height: height, filledWith: (255, 255, 255, 255))
            let pixel: [UInt8] = [200, 40, 40, 255]
            let band = Array([[UInt8]](repeating: pixel, count: width / 3).joined())
            for y in 0..<height {
                let start = y * width * 4
                image.pixels.replaceSubrange(start..<(start + band.count), with: band)
            }
            return image
        }
        let encoding = VariantEncoding(quality: 80)
        let atTheBound = bands(width: 2300, height: bound / 2300)
        #expect(atTheBound.pixelCount == bound)
        #expect(try WebPFeatures(encoding.encode(atTheBound, sourceFormat: .png)).compression == .lossless)
        let past = bands(width: 2301, height: bound / 2300)
        #expect(try WebPFeatures(encoding.encode(past, sourceFormat: .png)).compression == .lossy)
    }

    /// Photos are written exactly as before: lossy, with no second encode.
    @Test func photosStayLossy() throws {
        let png = try PNGEncoder().encode(OriginFixture.noise(width: 300, height: 200))
        let after = try ImageTransformer().transform(png, pipeline: Self.width(150))
        let before = try ImageTransformer(configuration: Self.lossyOnly).transform(png, pipeline: Self.width(150))
        #expect(after == before)
        #expect(try WebPFeatures(after.data).compression == .lossy)
    }

    /// `webpMethod` reaches libwebp: a photo at method 2 is another lossy
    /// WebP of the same size, and a method out of 0–6 is a typed failure.
    @Test func theWebPMethodIsTheConfiguredOne() throws {
        let png = try PNGEncoder().encode(OriginFixture.noise(width: 300, height: 200))
        var fast = ImageTransformer.Configuration()
        fast.webpMethod = 2
        let standard = try ImageTransformer().transform(png, pipeline: Self.width(150))
        let quick = try ImageTransformer(configuration: fast).transform(png, pipeline: Self.width(150))
        #expect(quick.data != standard.data)
        let features = try WebPFeatures(quick.data)
        #expect(features.compression == .lossy && features.width == 150 && features.height == 100)
        // Methods 0–2, without the rate-distortion pass that tunes the loop filter, get the strongest one.
        var tuning = WebPEncoder.Tuning()
        tuning.filterStrength = 100
        let options = VariantEncoding(quality: 80, method: 2).lossyOptions
        #expect(options.method == 2 && options.tuning == tuning)
        #expect(VariantEncoding(quality: 80).lossyOptions.tuning == WebPEncoder.Tuning())
        fast.webpMethod = 7
        #expect(throws: TransformError.self) {
            try ImageTransformer(configuration: fast).transform(png, pipeline: Self.width(150))
        }
    }

    /// An animated graphic: the smaller of all lossy and libwebp's per-frame
    /// choice; at the source's size no bigger than the GIF either.
    @Test func anAnimatedGraphicKeepsTheSmallerOfLossyAndMixed() throws {
        let frames = (0..<5).map { index in
            var image = Self.graphic(width: 120, height: 80)
            for y in 10..<30 {
                let row = (y * 120 + index * 20) * 4
                image.pixels.replaceSubrange(row..<(row + 80), with: repeatElement(0, count: 80))
            }
            return AnimatedImage.Frame(image: image, durationMilliseconds: 100)
        }
        let animation = AnimatedImage(canvasWidth: 120, canvasHeight: 80, frames: frames, loopCount: 0)
        let gif = try GIFEncoder().encode(animation)
        #expect(VariantEncoding.content(ofAnimation: gif, format: .gif) == .graphic)
        let encoding = VariantEncoding(quality: 80)
        var mixedOptions = WebPEncoder.Options(quality: 80)
        mixedOptions.allowMixed = true
        let lossy = try WebPEncoder(options: .init(quality: 80)).encode(animation)
        let mixed = try WebPEncoder(options: mixedOptions).encode(animation)
        try #require(mixed.count < lossy.count, "the fixture must be one where lossless frames win")
        #expect(try encoding.encode(animation, content: .graphic).data == mixed)
        #expect(try encoding.encode(animation, content: .photo).data == lossy)
        #expect(try WebPDecoder().decodeAnimation(mixed).frames.count == 5)

        let after = try ImageTransformer().transform(gif, pipeline: Self.sourceSize)
        let before = try ImageTransformer(configuration: Self.lossyOnly).transform(gif, pipeline: Self.sourceSize)
        #expect(after.data.count <= min(gif.count, mixed.count))
        #expect(after.data.count <= before.data.count)
        let resized = try ImageTransformer().transform(gif, pipeline: Self.width(60))
        let resizedLossy = try ImageTransformer(configuration: Self.lossyOnly).transform(gif, pipeline: Self.width(60))
        #expect(resized.format == .webp && resized.data.count <= resizedLossy.data.count)
    }

    /// An explicitly requested PNG or JPEG stays that format, graphic or not.
    @Test(arguments: [ImageFormat.png, .jpeg])
    func requestedFormatsAreKept(_ format: ImageFormat) throws {
        let png = try PNGEncoder().encode(Self.graphic(width: 96, height: 64))
        let output = try ImageTransformer().transform(png, pipeline: Self.width(48, format: format))
        #expect(output.format == format && !output.isSource)
        #expect(try ImageFormat.sniff(output.data) == format)
    }

    static var lossyOnly: ImageTransformer.Configuration {
        var configuration = ImageTransformer.Configuration()
        configuration.triesLosslessForGraphics = false
        return configuration
    }
}
