public import Foundation
public import WebPBridge

/// Runs a ``ProcessingPipeline`` on a source image: decode once (at the
/// smallest size the first step needs, through libwebp's scaler or
/// TurboJPEG's DCT scaling), resize and crop per step, encode once.
public struct ImageTransformer: Sendable {
    /// Defaults and limits; documented values follow the CDN's.
    public struct Configuration: Sendable, Equatable {
        /// WebP quality when the request names none. Default 80: over the 24
        /// Kodak photos published as JPEG q90 it saves 47% of the bytes at a
        /// mean luma SSIM of 0.965 (q75 saves 56% but at 0.952, too close to
        /// the 0.95 bar the project holds variants to).
        public var defaultWebPQuality: Int
        /// JPEG quality when the request names none. Default 75, Qiniu's.
        public var defaultJPEGQuality: Int
        /// AVIF quality when the request names none. Default
        /// ``AVIFEncoder/defaultQuality`` (chosen by measurement, docs/benchmarks.md: AVIF settings).
        public var defaultAVIFQuality = AVIFEncoder.defaultQuality
        /// AVIF encoder speed, 0 (slowest) to 10. Default ``AVIFEncoder/defaultSpeed``.
        public var avifSpeed = AVIFEncoder.defaultSpeed
        /// Largest source file, in bytes. Default 20 MB, Qiniu's.
        public var maxSourceBytes: Int
        /// Limits on the decoded source and on the work of one variant.
        /// Default 50 megapixels, 1,000 frames, and
        /// ``DecodingLimits/serverWorkPixels`` (60 megapixels) of work.
        public var limits: DecodingLimits
        /// Whether WebP variants of graphics are also tried lossless, keeping
        /// the smaller (``VariantEncoding``). Default `true`; photos are
        /// written lossy either way.
        public var triesLosslessForGraphics = true
        /// libwebp's `method` for lossy WebP variants, 0 (fastest) to 6
        /// (smallest). Default ``VariantEncoding/defaultMethod`` (4). At the same
        /// quality, method 2 took 39–47% of method 4's encode time for 2–4%
        /// more bytes and 0.0015–0.0016 less mean luma SSIM (docs/benchmarks.md: "The
        /// origin's WebP settings"). Out of 0–6, every lossy WebP variant
        /// fails with ``TransformError``.
        public var webpMethod = VariantEncoding.defaultMethod
        /// How a lossy variant's quality is chosen when the request names
        /// none: `.fixed` (the defaults above) or `.auto(target:)`, per image
        /// (``QualityMode``; `--quality auto[:TARGET]`). Default `.fixed`.
        public var qualityMode = QualityMode.fixed
        /// The target a request asking for less data is held to
        /// (``ImageTransformer/transform(_:pipeline:format:saveData:)`` with
        /// `saveData`, for `Save-Data: on`), in either mode and never above
        /// the mode's own target. Default ``QualityMode/defaultTarget`` minus
        /// ``QualityMode/saveDataReduction``: 50.
        public var saveDataQualityTarget = QualityMode.defaultTarget - QualityMode.saveDataReduction
        /// Whether negotiation (``ImageTransformer/transform(_:pipeline:smallestOf:saveData:)``)
        /// offers an animation as an AVIF image sequence to a client that
        /// names AVIF (`origin --avif-sequences`). Default `false`: naming
        /// AVIF does not promise animating it — Firefox and Safari for iOS
        /// advertised AVIF and showed a sequence's first frame
        /// (web-platform-tests/interop#182) — so an animation is offered
        /// as WebP only. A URL that asks for AVIF gets the sequence either way.
        public var negotiatesAVIFSequences = false

        /// The settings besides the request and the source that decide a
        /// variant's bytes, in one string: part of every variant's ETag, so
        /// origins set differently (say, a replica still on an older
        /// `--quality`) never give different bytes the same strong tag.
        /// The limits are not in it: they decide whether a variant is made,
        /// not its bytes.
        public var encodingFingerprint: String {
            "webp-q\(defaultWebPQuality)-m\(webpMethod)"
                + (triesLosslessForGraphics ? "-lossless-try-to-\(VariantEncoding.maxLosslessTryPixels)px," : ",")
                + "jpeg-q\(defaultJPEGQuality),"
                + "avif-q\(defaultAVIFQuality)-s\(avifSpeed)-sequence-s\(AVIFEncoder.defaultSequenceSpeed),"
                + "quality-\(qualityMode)-save-data-\(saveDataQualityTarget),"
                + "animation-samples-\(VariantEncoding.sampledFrames)-drift-\(VariantEncoding.driftAllowance)"
                + "-mixed-to-\(VariantEncoding.maxMixedEncodingPixelFrames)px"
                + (negotiatesAVIFSequences ? ",negotiated-avif-sequences" : "")
        }

        public init(
            defaultWebPQuality: Int = 80, defaultJPEGQuality: Int = 75, maxSourceBytes: Int = 20_000_000,
            limits: DecodingLimits = DecodingLimits(
                maxInputBytes: 20_000_000, maxWorkPixels: DecodingLimits.serverWorkPixels)
        ) {
            precondition((1...100).contains(defaultWebPQuality) && (1...100).contains(defaultJPEGQuality))
            precondition(maxSourceBytes > 0)
            self.defaultWebPQuality = defaultWebPQuality
            self.defaultJPEGQuality = defaultJPEGQuality
            self.maxSourceBytes = maxSourceBytes
            self.limits = limits
        }
    }

    /// A transformed image.
    public struct Output: Sendable, Equatable {
        public var data: Data
        public var format: ImageFormat
        /// `true` when the source bytes are returned as they are (the variant
        /// would have been larger at the same size).
        public var isSource: Bool
        /// The encoder quality a search chose (``Configuration/qualityMode``
        /// `.auto`, or a Save-Data request), `0` when it chose lossless;
        /// `nil` when no search ran (a fixed or requested quality, the source).
        public var searchedQuality: Int?
    }

    public var configuration: Configuration
    /// Where quality searches take their scorer's planes from and give
    /// them back to (``SSIMULACRA2/PlanePool``), so one search reuses the
    /// last one's memory; `nil` makes them afresh for every search. The
    /// origin passes one bounded by its memory budget.
    public var scorerPlanes: SSIMULACRA2.PlanePool?

    public init(configuration: Configuration = Configuration(), scorerPlanes: SSIMULACRA2.PlanePool? = nil) {
        self.configuration = configuration
        self.scorerPlanes = scorerPlanes
    }

    /// Transforms `source` by `pipeline`, or into `format` when the pipeline
    /// is empty (used by Accept negotiation).
    ///
    /// - Parameter saveData: The client asks for less data (`Save-Data: on`):
    ///   a lossy variant without a requested quality is searched for at
    ///   ``Configuration/saveDataQualityTarget``, never above the fixed
    ///   default. The caller keys such variants apart.
    /// - Throws: ``TransformError``.
    public func transform(
        _ source: Data, pipeline: ProcessingPipeline, format requestedFormat: ImageFormat? = nil,
        saveData: Bool = false
    ) throws(TransformError) -> Output {
        guard source.count <= configuration.maxSourceBytes else {
            throw .tooLarge(
                "source of \(source.count) bytes exceeds the \(configuration.maxSourceBytes)-byte limit")
        }
        do {
            let target = pipeline.quality == nil ? qualityTarget(saveData: saveData) : nil
            return try run(
                source, pipeline: pipeline, requestedFormat: requestedFormat, target: target, saveData: saveData)
        } catch let error as TransformError {
            throw error
        } catch let error as ImageCodecError {
            throw TransformError(codecError: error)
        } catch {
            throw .failed("\(error)")
        }
    }

    private func run(
        _ source: Data, pipeline: ProcessingPipeline, requestedFormat: ImageFormat?, target: Double?, saveData: Bool
    ) throws -> Output {
        let info = try ImageInfo(source, limits: configuration.limits)
        let format = requestedFormat ?? pipeline.outputFormat ?? Self.encodableFormat(for: info.format)
        let decoder = ImageDecoder(limits: configuration.limits)

        // What the output cannot hold, and work past the budget, are refused from the header, before
        // anything is decoded.
        let outputSize = try Self.outputSize(of: pipeline, width: info.width, height: info.height)
        try format.checkEncodable(width: outputSize.width, height: outputSize.height)
        let budgeted = try checkedCost(of: source, info: info, pipeline: pipeline, format: format, saveData: saveData)

        if format == .webp || (format == .avif && Self.makesAVIFSequence(of: info)), info.frames > 1,
            let reader = try AnimationReader(source, limits: configuration.limits)
        {
            // Frame by frame: decode one, transform it, hand it to the encoder, drop it.
            let stages = ResampleStage.stages(of: pipeline, width: reader.canvasWidth, height: reader.canvasHeight)
            let size =
                stages.last.map { ($0.outputWidth, $0.outputHeight) } ?? (reader.canvasWidth, reader.canvasHeight)
            let transformed = MappedAnimation(reader, canvasWidth: size.0, canvasHeight: size.1) {
                frame throws(ImageCodecError) in
                var image = frame
                for stage in stages { image = try stage.apply(to: image) }
                return image
            }
            if format == .webp {
                let encoded = try variantEncoding(pipeline)
                    .encode(
                        transformed, content: VariantEncoding.content(ofAnimation: source, format: info.format),
                        searching: target.map(webpSearch(target:)), scorerPlanes: scorerPlanes,
                        limits: configuration.limits
                    ) { () throws(ImageCodecError) in
                        // Refused as the whole variant would have been, had the headers told a graphic.
                        try configuration.limits.checkWork(
                            pixels: budgeted.workPixels,
                            Self.work(format: format, pipeline: pipeline, info: info)
                                + " with the mixed lossy-and-lossless encoding a graphic gets")
                    }
                var output = smaller(
                    encoded.data, format: .webp, than: source, info: info, width: size.0, height: size.1)
                if !output.isSource { output.searchedQuality = encoded.searchedQuality }
                return output
            }
            let options = AVIFEncoder.Options(
                quality: pipeline.quality ?? configuration.defaultAVIFQuality, speed: AVIFEncoder.defaultSequenceSpeed)
            // A frame that leaves part of the canvas undrawn gives `nil`: the first frame as a still, below.
            if let data = try Self.opaqueSequence(transformed, options: options) {
                return smaller(data, format: .avif, than: source, info: info, width: size.0, height: size.1)
            }
        }

        if let output = try planarVariant(source, pipeline: pipeline, format: format, info: info, target: target) {
            return output
        }
        // The steps composed, so no intermediate is larger than needed (``ResampleStage``).
        let stages = ResampleStage.stages(of: pipeline, width: info.width, height: info.height)
        var image: Image
        if let first = stages.first {
            // Decode straight at the first stage's scaled size where the codec can.
            let box = ThumbnailGeometry(scaledWidth: first.width, scaledHeight: first.height)
                .decodingBox(width: info.width, height: info.height)
            image = try decoder.decodeStill(source, fittingWidth: box.width, height: box.height)
            for stage in stages { image = try stage.apply(to: image) }
        } else {
            image = try decoder.decodeStill(source)
        }
        let data: Data
        var searchedQuality: Int?
        let reference =
            target != nil && (format == .webp || format == .avif)
            ? try searchReference(source, info: info, stages: stages) ?? image : image
        switch format {
        case .webp:
            if let target {
                let searched = try variantEncoding(pipeline)
                    .encode(
                        image, sourceFormat: info.format, searching: webpSearch(target: target), against: reference,
                        scorerPlanes: scorerPlanes)
                data = searched.data
                searchedQuality = searched.quality ?? 0
            } else {
                data = try variantEncoding(pipeline).encode(image, sourceFormat: info.format)
            }
        case .jpeg:
            let options = JPEGEncoder.Options(
                quality: pipeline.quality ?? configuration.defaultJPEGQuality, progressive: pipeline.interlace)
            data = try JPEGEncoder(options: options).encode(image)
        case .avif:
            if let target {
                (data, searchedQuality) = try searchedAVIF(image, target: target, against: reference)
                break
            }
            let options = AVIFEncoder.Options(
                quality: pipeline.quality ?? configuration.defaultAVIFQuality, speed: configuration.avifSpeed)
            data = try AVIFEncoder(options: options).encode(image)
        default:
            data = try PNGEncoder().encode(image)
        }
        var output = smaller(data, format: format, than: source, info: info, width: image.width, height: image.height)
        if !output.isSource { output.searchedQuality = searchedQuality }
        return output
    }

    /// `animation` as an AVIF sequence (``AVIFEncoder/encode(opaque:)``),
    /// or `nil` when a frame turns out translucent.
    private static func opaqueSequence(
        _ animation: some AnimationFrames, options: AVIFEncoder.Options
    ) throws(ImageCodecError) -> Data? {
        do {
            return try AVIFEncoder(options: options).encode(opaque: animation)
        } catch {
            guard error.kind == .unsupported else { throw error }
            return nil
        }
    }

    /// The commonest variant, a JPEG photo scaled into a WebP, made from the
    /// JPEG's own Y′CbCr planes and never converted to RGB
    /// (``JPEGDecoder/decodeYUV420(_:width:height:)``): at most one step and
    /// no crop. `nil` when it does not apply (and the RGBA path runs).
    private func planarVariant(
        _ source: Data, pipeline: ProcessingPipeline, format: ImageFormat, info: ImageInfo, target: Double?
    ) throws -> Output? {
        guard format == .webp, info.format == .jpeg, pipeline.steps.count <= 1 else { return nil }
        var size = (width: info.width, height: info.height)
        if let step = pipeline.steps.first {
            let geometry = Self.geometry(of: step, width: info.width, height: info.height)
            guard geometry.cropWidth == nil, geometry.cropHeight == nil else { return nil }
            size = (geometry.scaledWidth, geometry.scaledHeight)
        }
        let decoder = JPEGDecoder(limits: configuration.limits)
        guard let planes = try decoder.decodeYUV420(source, width: size.width, height: size.height) else {
            return nil
        }
        guard let target else {
            let data = try variantEncoding(pipeline).encode(planes)
            return smaller(data, format: .webp, than: source, info: info, width: planes.width, height: planes.height)
        }
        let stages = ResampleStage.stages(of: pipeline, width: info.width, height: info.height)
        let reference =
            try searchReference(source, info: info, stages: stages)
            ?? ImageDecoder(limits: configuration.limits).decodeStill(source)
        let searched = try variantEncoding(pipeline).encode(
            planes, searching: webpSearch(target: target), against: reference, scorerPlanes: scorerPlanes)
        var output = smaller(
            searched.data, format: .webp, than: source, info: info, width: planes.width, height: planes.height)
        if !output.isSource { output.searchedQuality = searched.quality }
        return output
    }

    /// How `pipeline`'s WebP is written: lossy, or the smaller of lossy and
    /// lossless for graphics (``VariantEncoding``).
    private func variantEncoding(_ pipeline: ProcessingPipeline) -> VariantEncoding {
        VariantEncoding(
            quality: pipeline.quality ?? configuration.defaultWebPQuality, method: configuration.webpMethod,
            triesLossless: configuration.triesLosslessForGraphics)
    }

    /// Never make an image bigger than needed: at the source's own size, a
    /// WebP (already the smaller of lossy and lossless for graphics) or an
    /// AVIF not smaller than the source is replaced by the source (clients sniff the
    /// bytes, as with `ignore-error/1`). An explicitly requested JPEG or PNG
    /// is always delivered in that format.
    private func smaller(
        _ data: Data, format: ImageFormat, than source: Data, info: ImageInfo, width: Int, height: Int
    ) -> Output {
        if format == .webp || format == .avif, width == info.width, height == info.height, data.count >= source.count {
            return Output(data: source, format: info.format, isSource: true, searchedQuality: nil)
        }
        return Output(data: data, format: format, isSource: false, searchedQuality: nil)
    }

    /// The size `pipeline` makes of a `width`×`height` source.
    ///
    /// - Throws: ``TransformError/tooLarge(_:)`` when a step would enlarge
    ///   past Qiniu's output limits (``ThumbnailGeometry/enlargementRefusal(fromWidth:height:)``).
    static func outputSize(
        of pipeline: ProcessingPipeline, width: Int, height: Int
    ) throws(TransformError) -> (width: Int, height: Int) {
        var size = (width: width, height: height)
        for step in pipeline.steps {
            let geometry = geometry(of: step, width: size.width, height: size.height)
            if let refusal = geometry.enlargementRefusal(fromWidth: size.width, height: size.height) {
                throw .tooLarge(refusal)
            }
            size = (geometry.outputWidth, geometry.outputHeight)
        }
        return size
    }

    static func geometry(of step: ImageOperation, width: Int, height: Int) -> ThumbnailGeometry {
        switch step {
        case .imageView2(let view):
            return ThumbnailGeometry.imageView2(view, width: width, height: height)
        case .imageMogr2(let mogr):
            guard let thumbnail = mogr.thumbnail else {
                return ThumbnailGeometry(scaledWidth: width, scaledHeight: height)
            }
            return ThumbnailGeometry.thumbnail(thumbnail, width: width, height: height)
        }
    }

    /// What a transformation without `format` writes: the source's format
    /// where there is an encoder for it (AVIF included), PNG for GIF and APNG,
    /// JPEG for HEIC (a photo; nothing here writes HEIC).
    static func encodableFormat(for format: ImageFormat) -> ImageFormat {
        switch format {
        case .jpeg, .png, .webp, .avif: format
        case .gif, .apng: .png
        case .heic: .jpeg
        }
    }
}
