import Foundation
import HTTPServer
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// `--quality auto`: each variant at the lowest quality reaching the
/// target, never above the fixed default, on generated images (so it runs
/// without the corpus).
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct AutoQualityTests {
    static func pipeline(width: Int, format: ImageFormat, quality: Int? = nil) -> ProcessingPipeline {
        ProcessingPipeline(
            steps: [.imageView2(ImageView2(mode: 2, width: width, format: format, quality: quality))],
            ignoresErrors: false)
    }

    static func transformer(_ mode: ImageTransformer.QualityMode) -> ImageTransformer {
        var configuration = ImageTransformer.Configuration()
        configuration.qualityMode = mode
        return ImageTransformer(configuration: configuration)
    }

    /// A photo with fine texture: harder to compress than the smooth one.
    static func textured(width: Int, height: Int) -> Image {
        var image = SyntheticImages.photo(width: width, height: height, seed: 7)
        let noise = OriginFixture.noise(width: width, height: height)
        for index in image.pixels.indices where index % 4 != 3 {
            let value = Int(image.pixels[index]) + (Int(noise.pixels[index]) - 128) / 3
            image.pixels[index] = UInt8(clamping: value)
        }
        return image
    }

    @Test func theFingerprintNamesTheModeAndTheTarget() {
        var configuration = ImageTransformer.Configuration()
        let fixed = configuration.encodingFingerprint
        configuration.qualityMode = .auto(target: 60)
        let auto = configuration.encodingFingerprint
        configuration.qualityMode = .auto(target: 70)
        let higher = configuration.encodingFingerprint
        configuration.saveDataQualityTarget = 45
        let saveData = configuration.encodingFingerprint
        #expect(Set([fixed, auto, higher, saveData]).count == 4, "\([fixed, auto, higher, saveData])")
    }

    @Test(arguments: [ImageFormat.webp, .avif])
    func anEasyImageGetsALowerQualityThanAHardOne(format: ImageFormat) throws {
        let target = 70.0
        let transformer = Self.transformer(.auto(target: target))
        var qualities: [Int] = []
        for image in [SyntheticImages.photo(width: 320, height: 240, seed: 2), Self.textured(width: 320, height: 240)] {
            let source = try PNGEncoder().encode(image)
            let output = try transformer.transform(source, pipeline: Self.pipeline(width: 240, format: format))
            let quality = try #require(output.searchedQuality)
            let ceiling = format == .webp ? 80 : AVIFEncoder.defaultQuality
            #expect(quality <= ceiling)
            // The score against what was encoded: the source resized as the transformer resizes it.
            let resized = try ImageResizer().resize(image, width: 240, height: 180)
            let score = try SSIMULACRA2.score(resized, ImageDecoder().decodeStill(output.data))
            #expect(score >= target || quality == ceiling, "\(format) q\(quality): \(score)")
            let fixed = try ImageTransformer().transform(source, pipeline: Self.pipeline(width: 240, format: format))
            #expect(output.data.count <= fixed.data.count)
            qualities.append(quality)
        }
        #expect(qualities[0] < qualities[1], "\(format): easy q\(qualities[0]), hard q\(qualities[1])")
    }

    @Test func aQualityInTheRequestWins() throws {
        let source = try PNGEncoder().encode(SyntheticImages.photo(width: 200, height: 150))
        let transformer = Self.transformer(.auto(target: 70))
        let named = try transformer.transform(source, pipeline: Self.pipeline(width: 100, format: .webp, quality: 90))
        #expect(named.searchedQuality == nil)
        let fixed = try ImageTransformer().transform(
            source, pipeline: Self.pipeline(width: 100, format: .webp, quality: 90))
        #expect(named.data == fixed.data)
    }

    /// The planar JPEG → WebP path is searched too, against the planes
    /// that were encoded; Save-Data lowers the target, in either mode.
    @Test func jpegPlanesAreSearchedAndSaveDataGoesLower() throws {
        let jpeg = try JPEGEncoder(options: .init(quality: 92)).encode(SyntheticImages.photo(width: 640, height: 480))
        let pipeline = Self.pipeline(width: 320, format: .webp)
        let auto = try Self.transformer(.auto(target: 70)).transform(jpeg, pipeline: pipeline)
        let fixed = try ImageTransformer().transform(jpeg, pipeline: pipeline)
        let quality = try #require(auto.searchedQuality)
        #expect(quality < 80 && auto.data.count < fixed.data.count, "q\(quality)")
        #expect(fixed.searchedQuality == nil)
        let saveData = try Self.transformer(.auto(target: 70)).transform(jpeg, pipeline: pipeline, saveData: true)
        #expect(try #require(saveData.searchedQuality) <= quality && saveData.data.count <= auto.data.count)
        let fixedSaveData = try ImageTransformer().transform(jpeg, pipeline: pipeline, saveData: true)
        #expect(fixedSaveData.searchedQuality != nil && fixedSaveData.data.count < fixed.data.count)
    }

    /// A search's encodes and memory are charged before it runs: more than
    /// one fixed encode, whether the mode or Save-Data asked for it, and
    /// nothing extra when the request names its quality.
    @Test func theCostChargesTheSearch() throws {
        let source = try PNGEncoder().encode(SyntheticImages.photo(width: 400, height: 300))
        let pipeline = Self.pipeline(width: 320, format: .webp)
        let fixed = try ImageTransformer().cost(of: source, pipeline: pipeline)
        let auto = try Self.transformer(.auto(target: 70)).cost(of: source, pipeline: pipeline)
        let saveData = try ImageTransformer().cost(of: source, pipeline: pipeline, saveData: true)
        let outputPixels = 320 * 240
        for searched in [auto, saveData] {
            #expect(searched.workPixels == fixed.workPixels + outputPixels * 12)
            #expect(searched.peakBytes >= source.count + outputPixels * 92 && searched.peakBytes > fixed.peakBytes)
        }
        let namedPipeline = Self.pipeline(width: 320, format: .webp, quality: 60)
        let named = try Self.transformer(.auto(target: 70)).cost(of: source, pipeline: namedPipeline)
        #expect(try named == ImageTransformer().cost(of: source, pipeline: namedPipeline))

        // The transformer holds a Save-Data search to the budget itself, as the origin does before it.
        var configuration = ImageTransformer.Configuration()
        configuration.limits.maxWorkPixels = fixed.workPixels
        let tight = ImageTransformer(configuration: configuration)
        #expect(try tight.transform(source, pipeline: pipeline).searchedQuality == nil)
        let refusal = #expect(throws: TransformError.self) {
            try tight.transform(source, pipeline: pipeline, saveData: true)
        }
        #expect(refusal?.statusCode == 413 && refusal?.message.contains("pixels of work") == true)
    }

    @Test func searchesStayWithinTheEncodeBound() throws {
        let search = QualitySearch(target: 70, qualities: 30...80, slope: 0.55)
        let photo = Self.textured(width: 160, height: 120)
        let lossy = try VariantEncoding(quality: 80).encode(photo, sourceFormat: .jpeg, searching: search)
        #expect(lossy.encodes <= QualitySearch.maxEncodes)
        // A graphic is also written lossless once.
        let logo = Image(width: 160, height: 120, filledWith: (20, 80, 200, 255))
        let graphic = try VariantEncoding(quality: 80).encode(logo, sourceFormat: .png, searching: search)
        #expect(
            graphic.encodes <= QualitySearch.maxEncodes + 1 && graphic.quality == nil, "lossless wins on a flat fill")
    }

    @Test func theOriginSaysTheChosenQualityOnlyWhenItSearched() async throws {
        let fixture = try OriginFixture()
        let auto = try fixture.origin { $0.transformer.qualityMode = .auto(target: 70) }
        let made = await auto.get("/photo.jpg?imageView2/2/w/400/format/webp")
        let field = try #require(made.headers[ImageTransformer.qualityField])
        #expect(Int(field).map { (30...80).contains($0) } == true, "\(field)")
        let cached = await auto.get("/photo.jpg?imageView2/2/w/400/format/webp")
        #expect(cached.headers[ImageTransformer.qualityField] == field)
        let fixed = try fixture.origin()
        let plain = await fixed.get("/photo.jpg?imageView2/2/w/400/format/webp")
        #expect(plain.status == .ok && plain.headers[ImageTransformer.qualityField] == nil)
        #expect(made.headers["ETag"] != plain.headers["ETag"])
    }
}
