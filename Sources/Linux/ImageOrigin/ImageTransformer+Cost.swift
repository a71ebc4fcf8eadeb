public import Foundation
public import WebPBridge

extension ImageTransformer {
    /// What making a variant will take, estimated from the source's headers
    /// before any pixel is decoded.
    public struct Cost: Sendable, Equatable {
        /// Pixels processed: every frame decoded, every resampled frame
        /// made, every frame encoded; a still's lossless try (counted for
        /// every still whose size and format allow one:
        /// ``VariantEncoding/mayTryLossless(pixels:sourceFormat:)``) counts
        /// ``ImageTransformer/losslessWorkWeight`` times its pixels, an
        /// animated graphic's mixed encoding
        /// ``ImageTransformer/mixedEncodingWorkWeight`` times.
        /// Bounded by ``DecodingLimits/maxWorkPixels``.
        public var workPixels: Int
        /// Of ``workPixels``, the mixed encoding of a graphic animation
        /// (libwebp choosing lossy or lossless frame by frame): made only
        /// when the animation's sampled frames show a graphic
        /// (``VariantEncoding/content(_:sampledFrames:)``), which the
        /// headers cannot tell. 0 when none can be made.
        public var mixedEncodingWorkPixels = 0
        /// The most bytes held at once: the source, then the larger of the
        /// decoded image with the first resample's output, a resample's
        /// input with its output, and the output with the encoder's memory
        /// (and a quality search's, ``ImageTransformer/searchBytesPerPixel``).
        public var peakBytes: Int

        /// The work done whatever the frames hold: ``workPixels`` less the
        /// mixed encoding. What is held to the budget before a pixel is
        /// decoded; the whole of ``workPixels`` is, before the mixed
        /// encoding.
        public var workPixelsBeforeMixedEncoding: Int { workPixels - mixedEncodingWorkPixels }

        /// A still's quality search added: its work
        /// (``addSearchWork(outputPixels:images:)``, and a JPEG's reference
        /// decoded again, ``ImageTransformer/wholeImageDecodeWork(of:)``)
        /// and its memory beside the encoder's (the reference's decoder
        /// holding what it holds for the whole image, as the variant's did).
        mutating func addSearch(outputPixels: Int, source info: ImageInfo, format: ImageFormat) {
            addSearchWork(outputPixels: outputPixels)
            if info.format == .jpeg { addWork(ImageTransformer.wholeImageDecodeWork(of: info)) }
            let held =
                outputPixels
                * (4 + ImageTransformer.encoderBytesPerPixel(format, lossless: false)
                    + ImageTransformer.searchBytesPerPixel)
            peakBytes = max(peakBytes, info.bytes + info.wholeImageDecoderBytes + held)
        }

        /// `pixels` more work, ``workPixels`` at `Int.max` past it.
        mutating func addWork(_ pixels: Int) {
            let work = workPixels.addingReportingOverflow(pixels)
            workPixels = work.overflow ? .max : work.partialValue
        }

        /// ``ImageTransformer/searchWorkPerPixel`` for each of `images`
        /// searched images of `outputPixels`.
        mutating func addSearchWork(outputPixels: Int, images: Int = 1) {
            let perImage = outputPixels.multipliedReportingOverflow(by: ImageTransformer.searchWorkPerPixel)
            let all = perImage.partialValue.multipliedReportingOverflow(by: images)
            addWork(perImage.overflow || all.overflow ? .max : all.partialValue)
        }
    }

    /// What one output pixel of a quality search holds besides the image
    /// and the encoder, counted from the planes it makes: the reference
    /// image (4), an ``SSIMULACRA2/Reference`` (32 bytes at most,
    /// `SSIMULACRA2Tests`), the scorer's working planes (47, held for the
    /// whole search) and the decoded trial (4), 87 in all; the reference's
    /// and the working planes taken from the origin's
    /// ``SSIMULACRA2/PlanePool`` may be up to a sixteenth larger than asked
    /// (5 more of their 79), which the 92 covers. Before the
    /// search, a JPEG's reference is decoded at the n/8 covering twice the
    /// box: TurboJPEG's factors step by 1/8, so up to four times the box's
    /// width and height (64 bytes an output pixel, beside the 4 of the
    /// resized reference), freed before the scorer is made.
    static let searchBytesPerPixel = 92
    /// Work a quality search adds per output pixel, in the units of
    /// ``Cost/workPixels``: 3 encodes beyond the fixed one, 4 decodes and
    /// scores (counted as one encode each), and the reference decoded at up
    /// to four times the pixels and resampled (5).
    static let searchWorkPerPixel = 12

    /// What one pixel of a still's lossless WebP try counts in
    /// ``Cost/workPixels``: 11, so that the request as a whole (decode,
    /// lossy encode and lossless try, 13 units a pixel) is counted at about
    /// what it costs, where a unit is worth about 0.033 µs (60 M for about
    /// 2 s, docs/work-budget.md). Through the release origin, PNG sources of
    /// 4.6 and 6.4 megapixels that the sample takes for graphics took
    /// 0.37–0.45 µs a pixel when their colours were a photo's (enlarged by
    /// nearest neighbour) or a screenshot's, 0.27–0.30 for an antialiased
    /// drawing and 0.09 for eight flat colours: the count is blind to which,
    /// so it is set by the costly ones. It was 6, from flat enlargements,
    /// and let a photo-like graphic cost twice the promise.
    static let losslessWorkWeight = 11

    /// What one output pixel of a frame counts in ``Cost/workPixels`` when
    /// libwebp's animation encoder writes a graphic's frames choosing lossy
    /// or lossless for each (``Cost/mixedEncodingWorkPixels``): 6, with
    /// which a 480×270 GIF dithered to 190 colours took 26–28 ns a unit
    /// (docs/work-budget.md). libwebp tries a frame lossless only when it
    /// has fewer than 194 colours, which is why this is less than a still's
    /// ``losslessWorkWeight``.
    static let mixedEncodingWorkWeight = 6

    /// What one output pixel of a frame counts in ``Cost/workPixels`` when
    /// libwebp's animation encoder writes it lossy: 3, since it took
    /// 0.11–0.18 µs a pixel here on 480×270 frames of photographs and
    /// dithered graphics (`gif2webp -lossy -q 80 -m 4`, the GIF's decode
    /// included: 0.11–0.15 as changed rectangles, 0.18 as whole frames),
    /// where a unit is worth about 0.033 µs (60 M for about 2 s,
    /// docs/work-budget.md): it tries each frame's rectangle more than one
    /// way.
    static let animationEncodeWorkWeight = 3

    /// Bytes an encoder holds per output pixel besides the RGBA image,
    /// measured as the growth of peak RSS when encoding a 4998×4998 image
    /// (docs/work-budget.md): libwebp lossy holds its Y′CbCr(A) picture
    /// and per-macroblock state; lossless holds the ARGB picture, its
    /// transformed copy, hash chains and backward references.
    static func encoderBytesPerPixel(_ format: ImageFormat, lossless: Bool) -> Int {
        switch format {
        case .webp: lossless ? 24 : 4
        case .avif: 12
        case .jpeg, .heic: 3  // HEIC is written as JPEG (encodableFormat(for:))
        case .png, .apng, .gif: 5
        }
    }

    /// What an animated WebP's drift check holds per output pixel beside
    /// the frames a pass holds: the sampled frames (4 each), a scorer and
    /// its reference (``searchBytesPerPixel``), a key frame's encoder (4),
    /// and the decoder's canvas and the frame it hands over (8).
    static let driftCheckBytesPerPixel = 4 * VariantEncoding.sampledFrames + searchBytesPerPixel + 4 + 8

    /// Bytes aom's real-time encoder holds per output pixel of an AVIF
    /// sequence, and besides them: `avifenc -s 8` peaked at 19, 34 and 90 MB
    /// on 480×270, 960×540 and 1920×1080 sequences (37 B a pixel over a
    /// fixed part); one origin request grew its peak RSS by 16, 30 and
    /// 96 MiB (docs/work-budget.md), under these estimates.
    static let sequenceEncoderBytesPerPixel = 40
    static let sequenceEncoderFixedBytes = 12 << 20

    /// The cost of ``transform(_:pipeline:format:saveData:)`` on these arguments,
    /// from the source's headers.
    ///
    /// - Throws: ``TransformError/tooLarge(_:)`` when the source or output
    ///   passes a limit, the work (less a graphic animation's mixed
    ///   encoding, ``Cost/workPixelsBeforeMixedEncoding``) passes
    ///   ``DecodingLimits/maxWorkPixels``, or a step enlarges past
    ///   Qiniu's limits; another ``TransformError`` when the source is not
    ///   an image.
    public func cost(
        of source: Data, pipeline: ProcessingPipeline, format requestedFormat: ImageFormat? = nil,
        saveData: Bool = false
    ) throws(TransformError) -> Cost {
        do {
            let info = try ImageInfo(source, limits: configuration.limits)
            let format = requestedFormat ?? pipeline.outputFormat ?? Self.encodableFormat(for: info.format)
            return try checkedCost(of: source, info: info, pipeline: pipeline, format: format, saveData: saveData)
        } catch let error as TransformError {
            throw error
        } catch let error as ImageCodecError {
            throw TransformError(codecError: error)
        } catch {
            throw .failed("\(error)")
        }
    }

    /// The cost of making `format` from `source` (whose headers `info`
    /// holds), held to the work budget as ``cost(of:pipeline:format:saveData:)``
    /// says.
    ///
    /// - Throws: ``TransformError`` or the budget's ``ImageCodecError``.
    func checkedCost(
        of source: Data, info: ImageInfo, pipeline: ProcessingPipeline, format: ImageFormat, saveData: Bool
    ) throws -> Cost {
        let cost = try Self.cost(
            of: info, pipeline: pipeline, format: format, triesLossless: configuration.triesLosslessForGraphics,
            animationContent: VariantEncoding.content(ofAnimation: source, format: info.format),
            searchesQuality: pipeline.quality == nil && qualityTarget(saveData: saveData) != nil)
        try configuration.limits.checkWork(
            pixels: cost.workPixelsBeforeMixedEncoding, Self.work(format: format, pipeline: pipeline, info: info))
        return cost
    }

    /// The work of making `format` by `pipeline` from `info`'s image, for
    /// a message: `making webp of 1-step pipeline from gif of 40 frames at
    /// 480x270`.
    static func work(format: ImageFormat, pipeline: ProcessingPipeline, info: ImageInfo) -> String {
        "making \(format) of \(pipeline.steps.count)-step pipeline from \(info.format)"
            + " of \(info.frames) frame\(info.frames == 1 ? "" : "s") at \(info.width)x\(info.height)"
    }

    /// - Parameter searchesQuality: A quality is searched for (a WebP or
    ///   AVIF still, an animated WebP's sampled frames, and the still an
    ///   AVIF sequence falls back to when a frame is translucent).
    static func cost(
        of info: ImageInfo, pipeline: ProcessingPipeline, format: ImageFormat, triesLossless: Bool,
        animationContent: VariantEncoding.Content, searchesQuality: Bool = false
    ) throws(TransformError) -> Cost {
        var cost = try costWithoutSearch(
            of: info, pipeline: pipeline, format: format, triesLossless: triesLossless,
            animationContent: animationContent)
        guard searchesQuality, format == .webp || format == .avif else { return cost }
        let size = try outputSize(of: pipeline, width: info.width, height: info.height)
        let outputPixels = size.width * size.height
        guard info.frames > 1, format == .webp else {
            cost.addSearch(outputPixels: outputPixels, source: info, format: format)
            return cost
        }
        // The sampled frames searched one at a time, with the drift check's scorer and frames, whose
        // memory the animation's cost holds already.
        cost.addSearchWork(outputPixels: outputPixels, images: min(info.frames, VariantEncoding.sampledFrames))
        return cost
    }

    private static func costWithoutSearch(
        of info: ImageInfo, pipeline: ProcessingPipeline, format: ImageFormat, triesLossless: Bool,
        animationContent: VariantEncoding.Content
    ) throws(TransformError) -> Cost {
        let outputSize = try outputSize(of: pipeline, width: info.width, height: info.height)
        let stages = ResampleStage.stages(of: pipeline, width: info.width, height: info.height)
        let outputPixels = outputSize.width * outputSize.height
        let sourceBytes = info.bytes
        if info.frames > 1, format == .webp || (format == .avif && makesAVIFSequence(of: info)) {
            // Frame by frame: each pass decodes every frame and resamples it, with a few canvases and
            // the resampled frames held beside the encoder's memory.
            let canvas = info.width * info.height
            let perPass = canvas + stages.reduce(0) { $0 + $1.outputPixels }
            let framesHeld = sourceBytes + 3 * canvas * 4 + stages.reduce(0) { $0 + $1.outputPixels * 4 }
            let perFrame: Int
            let peak: Int
            var mixedPerFrame = 0
            if format == .avif {
                // One pass (``AVIFEncoder/encode(opaque:)``): aom's real-time encoder costs about
                // what a lossy WebP encode does per pixel and frame.
                perFrame = perPass + outputPixels
                peak = framesHeld + outputPixels * (4 + sequenceEncoderBytesPerPixel) + sequenceEncoderFixedBytes
            } else {
                // libwebp's animation encoder keeps about four output frames. Every frame is visited
                // to sample some
                // (``VariantEncoding/encode(_:content:searching:scorerPlanes:limits:beforeMixedEncoding:)``),
                // encoded lossy, and a graphic once more mixed (counted apart:
                // ``Cost/mixedEncodingWorkPixels``); what was written is decoded, and a drifting
                // animation is encoded once more with whole frames.
                let mixes = VariantEncoding.makesMixedEncoding(
                    of: animationContent, triesLossless: triesLossless,
                    pixelFrames: VariantEncoding.pixelFrames(outputPixels, frames: info.frames))
                let lossyPass = perPass + outputPixels * animationEncodeWorkWeight
                mixedPerFrame = mixes ? perPass + outputPixels * mixedEncodingWorkWeight : 0
                perFrame = perPass + lossyPass + mixedPerFrame + outputPixels + lossyPass
                let encoderBytes = 4 * 4 + encoderBytesPerPixel(.webp, lossless: mixes)
                peak = framesHeld + outputPixels * max(encoderBytes, driftCheckBytesPerPixel)
            }
            let frames = info.frames.multipliedReportingOverflow(by: perFrame)
            // The drift check of each sampled frame after the first: a key frame encoded and decoded,
            // two scores.
            let checks = outputPixels.multipliedReportingOverflow(by: 4 * (VariantEncoding.sampledFrames - 1))
            let work = frames.partialValue.addingReportingOverflow(format == .webp ? checks.partialValue : 0)
            let mixed = info.frames.multipliedReportingOverflow(by: mixedPerFrame)
            let overflow = frames.overflow || checks.overflow || work.overflow || mixed.overflow
            return overflow
                ? Cost(workPixels: .max, peakBytes: peak)
                : Cost(workPixels: work.partialValue, mixedEncodingWorkPixels: mixed.partialValue, peakBytes: peak)
        }
        let decoded = decodedPixels(of: info, firstStage: stages.first)
        var work = decoded.pixels
        var peak = decoded.pixels * 4 + info.wholeImageDecoderBytes
        var input = (width: decoded.width, height: decoded.height)
        for stage in stages {
            work += stage.outputPixels
            let working = stage.workingBytes(inputWidth: input.width, inputHeight: input.height)
            peak = max(peak, (input.width * input.height + stage.outputPixels) * 4 + working)
            input = (stage.outputWidth, stage.outputHeight)
        }
        let lossless =
            triesLossless && format == .webp
            && VariantEncoding.mayTryLossless(pixels: outputPixels, sourceFormat: info.format)
        work += outputPixels * (lossless ? 1 + losslessWorkWeight : 1)
        peak = max(peak, outputPixels * (4 + encoderBytesPerPixel(format, lossless: lossless)))
        var cost = Cost(workPixels: work, peakBytes: sourceBytes + peak)
        cost.addWork(wholeImageDecodeWork(of: info, decodedPixels: decoded.pixels))
        return cost
    }

    /// The work of decoding a still that does not shrink with the size it
    /// is decoded at, beyond the pixels decoded: for a JPEG of more than one
    /// scan, its coefficients written and read (a unit for 16 of their
    /// bytes) and a pass over its blocks for every scan (a unit for 128
    /// pixels a scan); for a WebP scaled by libwebp, the macroblocks it
    /// decodes whole before it rescales (a unit a pixel). Measured
    /// through `convert --width 100`, whose decode the scaled size hardly
    /// costs: progressive 5760×3600 photos (10 scans) took 0.20 s more
    /// than the same photos in one scan at 4:2:0 and 0.31 s at 4:4:4,
    /// counted here as 5.5 M and 9.4 M units (0.18 and 0.31 s at a unit's
    /// 0.033 µs, docs/work-budget.md); a flat 7000×7000 JPEG of 490 scans
    /// took 4.4 s more than in one, counted as 206 M (6.8 s); that photo
    /// as a lossy WebP took 0.15 s, counted as 20.7 M (0.68 s). 0 for the
    /// rest, whose whole decode the pixels count.
    ///
    /// - Parameter decodedPixels: The pixels the decode returns, counted
    ///   apart (a WebP's whole decode is only what they leave).
    static func wholeImageDecodeWork(of info: ImageInfo, decodedPixels: Int = 0) -> Int {
        let whole = info.width * info.height
        switch info.format {
        case .jpeg where info.scans > 1:
            let (passes, overflow) = whole.multipliedReportingOverflow(by: info.scans)
            return overflow ? .max : info.wholeImageDecoderBytes / 16 + passes / 128
        case .webp where info.frames == 1:
            return max(0, whole - decodedPixels)
        default:
            return 0
        }
    }

    /// The size a still is decoded at for `stage`: TurboJPEG scales by
    /// n/8 and libwebp to any size; the other decoders decode whole (and
    /// then reduce to the box, counted as a second image).
    private static func decodedPixels(
        of info: ImageInfo, firstStage stage: ResampleStage?
    ) -> (pixels: Int, width: Int, height: Int) {
        let whole = info.width * info.height
        guard let stage else { return (whole, info.width, info.height) }
        let box = ThumbnailGeometry(scaledWidth: stage.width, scaledHeight: stage.height)
            .decodingBox(width: info.width, height: info.height)
        guard box.width < info.width || box.height < info.height else { return (whole, info.width, info.height) }
        switch info.format {
        case .webp:
            return (box.width * box.height, box.width, box.height)
        case .jpeg:
            for eighths in 1...8 {
                let width = (info.width * eighths + 7) / 8
                let height = (info.height * eighths + 7) / 8
                if width >= box.width && height >= box.height { return (width * height, width, height) }
            }
            return (whole, info.width, info.height)
        default:
            let fitted = ImageResizer.fittingSize(
                width: info.width, height: info.height, maxWidth: box.width, maxHeight: box.height)
            return (whole + fitted.width * fitted.height, fitted.width, fitted.height)
        }
    }
}
