public import Foundation
public import WebPBridge

extension ImageTransformer {
    /// Transforms `source` by `pipeline` into whichever of `formats` (all
    /// acceptable to the client, the preferred first) gives the fewest
    /// bytes — or the source, by the rule of ``transform(_:pipeline:format:saveData:)``.
    ///
    /// Which formats are tried (``formatsTried(from:source:sequences:)``):
    /// - a photo source (JPEG, AVIF, HEIC) only the first: for photos AVIF
    ///   is the smaller by far at the default qualities (the demo's front
    ///   page: 627 kB for the AVIF client, 985 kB for the WebP client), and a
    ///   second encode would double the CPU of every variant for nothing;
    /// - any other still (PNG, WebP, GIF, APNG of one frame) every format:
    ///   graphics are where lossless WebP beats AVIF (the demo's logos: 8 kB
    ///   against 13 kB), and they are small, so each encode is cheap;
    /// - an animation only the formats that keep it moving: WebP, and, with
    ///   ``Configuration/negotiatesAVIFSequences``, AVIF for one made as an
    ///   image sequence (``makesAVIFSequence(of:)``: an
    ///   opaque animation that plays forever), where AV1's inter-frame
    ///   coding makes a photographic animation a fraction of its animated
    ///   WebP (the demo's GIF: docs/benchmarks.md, "AVIF image sequences").
    ///   An AVIF that comes out a still (a frame left part of the canvas
    ///   undrawn) is not a candidate.
    ///
    /// Ties go to the earlier format. When none of `formats` is worth
    /// trying (an animation, and no WebP or sequence among them), the source
    /// is answered as it is. An empty `formats` (nothing negotiated) makes the
    /// pipeline's own format, as ``transform(_:pipeline:format:saveData:)`` does.
    ///
    /// - Parameter saveData: As ``transform(_:pipeline:format:saveData:)``, for every format tried.
    /// - Throws: ``TransformError``, from the first format that fails.
    public func transform(
        _ source: Data, pipeline: ProcessingPipeline, smallestOf formats: [ImageFormat], saveData: Bool = false
    ) throws(TransformError) -> Output {
        guard !formats.isEmpty else { return try transform(source, pipeline: pipeline, saveData: saveData) }
        let (info, tried) = try formatsTried(in: source, from: formats)
        var best: Output?
        for format in tried {
            let output = try transform(source, pipeline: pipeline, format: format, saveData: saveData)
            if info.frames > 1, !output.isSource, output.format == .avif, Self.isStill(output.data) { continue }
            if best.map({ output.data.count < $0.data.count }) ?? true { best = output }
        }
        return best ?? Output(data: source, format: info.format, isSource: true)
    }

    /// Whether an image sequence is made of `info`'s animation for an AVIF
    /// variant: more than one frame, played forever (a sequence has no
    /// repetition count, ``AVIFEncoder/encode(opaque:)``) and no alpha
    /// declared (a sequence with alpha would leave aom's real-time mode,
    /// ``AVIFEncoder/maxSpeedWithAlpha``). Otherwise an AVIF variant of an
    /// animation is its first frame.
    public static func makesAVIFSequence(of info: ImageInfo) -> Bool {
        info.frames > 1 && info.loopCount == 0 && !info.alpha
    }

    private static func isStill(_ data: Data) -> Bool {
        (try? ImageInfo(data).frames) ?? 1 <= 1
    }

    /// What making the smallest of `formats` costs: the work of every
    /// format tried, and the peak of the total, since they are made one
    /// after another. Each format's work is held to the budget on its own.
    ///
    /// - Throws: ``TransformError``, as ``cost(of:pipeline:format:saveData:)``.
    public func cost(
        of source: Data, pipeline: ProcessingPipeline, smallestOf formats: [ImageFormat], saveData: Bool = false
    ) throws(TransformError) -> Cost {
        guard !formats.isEmpty else { return try cost(of: source, pipeline: pipeline, saveData: saveData) }
        let (_, tried) = try formatsTried(in: source, from: formats)
        guard let first = tried.first else { return Cost(workPixels: 0, peakBytes: source.count) }
        var total = try cost(of: source, pipeline: pipeline, format: first, saveData: saveData)
        for format in tried.dropFirst() {
            let other = try cost(of: source, pipeline: pipeline, format: format, saveData: saveData)
            total = Cost(
                workPixels: total.workPixels + other.workPixels,
                mixedEncodingWorkPixels: total.mixedEncodingWorkPixels + other.mixedEncodingWorkPixels,
                peakBytes: max(total.peakBytes, other.peakBytes))
        }
        return total
    }

    /// The formats of `formats` worth trying for a source that `source`
    /// describes, AVIF sequences among them when `sequences` says; see
    /// ``transform(_:pipeline:smallestOf:saveData:)``. Keeps their order.
    public static func formatsTried(from formats: [ImageFormat], source: ImageInfo, sequences: Bool) -> [ImageFormat] {
        if source.frames > 1 {
            return formats.filter { $0 == .webp || ($0 == .avif && sequences && makesAVIFSequence(of: source)) }
        }
        switch source.format {
        case .jpeg, .avif, .heic: return Array(formats.prefix(1))
        case .png, .apng, .webp, .gif: return formats
        }
    }

    private func formatsTried(
        in source: Data, from formats: [ImageFormat]
    ) throws(TransformError) -> (source: ImageInfo, tried: [ImageFormat]) {
        let info: ImageInfo
        do {
            info = try ImageInfo(source, limits: configuration.limits)
        } catch {
            throw TransformError(codecError: error)
        }
        return (info, Self.formatsTried(from: formats, source: info, sequences: configuration.negotiatesAVIFSequences))
    }
}
