public import Foundation
public import WebPBridge

extension ImageTransformer {
    /// Transforms `source` by `pipeline` into whichever of `formats` (all
    /// acceptable to the client, the preferred first) gives the fewest
    /// bytes — or the source, by the rule of ``transform(_:pipeline:format:)``.
    ///
    /// Which formats are tried (``formatsTried(from:sourceFormat:frames:)``):
    /// - a photo source (JPEG, AVIF, HEIC) only the first: for photos AVIF
    ///   is the smaller by far at the default qualities (the demo's front
    ///   page: 627 kB for the AVIF client, 985 kB for the WebP client), and a
    ///   second encode would double the CPU of every variant for nothing;
    /// - any other still (PNG, WebP, GIF, APNG of one frame) every format:
    ///   graphics are where lossless WebP beats AVIF (the demo's logos: 8 kB
    ///   against 13 kB), and they are small, so each encode is cheap;
    /// - an animation only the formats that keep it moving (WebP): an AVIF
    ///   made here would hold the first frame alone.
    ///
    /// Ties go to the earlier format. When none of `formats` is worth
    /// trying (an animation, and no WebP among them), the source is answered
    /// as it is. An empty `formats` (nothing negotiated) makes the
    /// pipeline's own format, as ``transform(_:pipeline:format:saveData:)`` does.
    ///
    /// - Parameter saveData: As ``transform(_:pipeline:format:saveData:)``, for every format tried.
    /// - Throws: ``TransformError``, from the first format that fails.
    public func transform(
        _ source: Data, pipeline: ProcessingPipeline, smallestOf formats: [ImageFormat], saveData: Bool = false
    ) throws(TransformError) -> Output {
        guard !formats.isEmpty else { return try transform(source, pipeline: pipeline, saveData: saveData) }
        let (sourceFormat, tried) = try formatsTried(in: source, from: formats)
        guard let first = tried.first else { return Output(data: source, format: sourceFormat, isSource: true) }
        var best = try transform(source, pipeline: pipeline, format: first, saveData: saveData)
        for format in tried.dropFirst() {
            let output = try transform(source, pipeline: pipeline, format: format, saveData: saveData)
            if output.data.count < best.data.count { best = output }
        }
        return best
    }

    /// What making the smallest of `formats` costs: the work of every
    /// format tried, and the peak of the total, since they are made one
    /// after another. Each format's work is held to the budget on its own.
    ///
    /// - Throws: ``TransformError``, as ``cost(of:pipeline:format:)``.
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
                workPixels: total.workPixels + other.workPixels, peakBytes: max(total.peakBytes, other.peakBytes))
        }
        return total
    }

    /// The formats of `formats` worth trying for a source of
    /// `sourceFormat` with `frames` frames; see
    /// ``transform(_:pipeline:smallestOf:)``. Keeps their order.
    public static func formatsTried(from formats: [ImageFormat], sourceFormat: ImageFormat, frames: Int)
        -> [ImageFormat]
    {
        if frames > 1 { return formats.filter { $0 == .webp } }
        switch sourceFormat {
        case .jpeg, .avif, .heic: return Array(formats.prefix(1))
        case .png, .apng, .webp, .gif: return formats
        }
    }

    private func formatsTried(
        in source: Data, from formats: [ImageFormat]
    ) throws(TransformError) -> (sourceFormat: ImageFormat, tried: [ImageFormat]) {
        let info: ImageInfo
        do {
            info = try ImageInfo(source, limits: configuration.limits)
        } catch {
            throw TransformError(codecError: error)
        }
        return (info.format, Self.formatsTried(from: formats, sourceFormat: info.format, frames: info.frames))
    }
}
