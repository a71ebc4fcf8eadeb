import Foundation
public import WebPBridge

extension ImageTransformer {
    /// How the quality of a lossy variant (WebP, AVIF) is chosen when the
    /// request names none (`/quality/N`, `/q/N` always win).
    public enum QualityMode: Sendable, Equatable, CustomStringConvertible {
        /// ``Configuration/defaultWebPQuality`` and
        /// ``Configuration/defaultAVIFQuality`` for every image.
        case fixed
        /// Per image, the lowest quality whose ``SSIMULACRA2`` score against the
        /// resized source reaches `target` (``QualitySearch``), never above
        /// the fixed default: an image that needs more than the default to
        /// reach the target gets the default, as it would today, so no
        /// variant is bigger than with `.fixed`.
        case auto(target: Double)

        /// The target `--quality auto` uses, an SSIMULACRA 2 score: the
        /// lowest the fixed q80 WebP / q60 AVIF gave any of 16 Kodak photos
        /// at 750 px (64.0 / 62.0), rounded up, so no photo is held lower
        /// than the fixed quality already put the hardest one
        /// (docs/benchmarks.md, "Quality chosen per image").
        public static let defaultTarget = 65.0
        /// How far a request asking for less data (`Save-Data: on`) lowers
        /// the target: ``Configuration/saveDataQualityTarget`` defaults to
        /// ``defaultTarget`` minus this, 50 (medium quality on
        /// SSIMULACRA 2's scale).
        public static let saveDataReduction = 15.0
        /// Targets `--quality auto:TARGET` accepts, on SSIMULACRA 2's scale:
        /// below 30 every photo shows its artefacts plainly; above 95 only
        /// qualities no default reaches would do.
        public static let targets: ClosedRange<Double> = 30...95

        /// `fixed`, or `auto:TARGET`, as the flag takes it.
        public var description: String {
            switch self {
            case .fixed: "fixed"
            case .auto(let target): "auto:\(target)"
            }
        }

        /// Parses `auto` or `auto:TARGET` (`nil` for anything else, a
        /// target out of ``targets`` included).
        public init?(flag: String) {
            guard flag == "auto" || flag.hasPrefix("auto:") else { return nil }
            guard flag != "auto" else {
                self = .auto(target: Self.defaultTarget)
                return
            }
            let text = flag.dropFirst("auto:".count)
            guard let target = Double(text), text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                Self.targets.contains(target)
            else { return nil }
            self = .auto(target: target)
        }
    }

    /// The response field that carries a searched variant's quality
    /// (``Output/qualityFieldValue``), for charts and for debugging; absent
    /// when no search ran.
    public static let qualityField = "X-Image-Quality"

    /// The lowest quality the search tries, for WebP and AVIF alike: below
    /// it artefacts show on every photo whatever a metric says.
    public static let searchFloor = 30
    /// How a WebP's score moves with quality, as the search predicts it:
    /// 0.55 SSIMULACRA 2 points a step, the median over 8 Kodak photos of
    /// the slope between q40 and q80 (0.43–0.76; docs/benchmarks.md).
    /// libwebp's scores step unevenly (its quantiser jumps near q75), and
    /// the distance model fitted them no better: replaying the searches on
    /// every quality of the 24 Kodak and 12 demo photos, it averaged 2.27
    /// encodes over targets 55, 65 and 72 against this model's 2.17.
    public static let webpModel = QualitySearch.Model.linear(slope: 0.55)
    /// The same for AVIF: the distance to a perfect score shrinks by about
    /// 3.2% a quality step, the median over those 36 photos of the slope of
    /// ln(100 − score) between q40 and q60, which varies less from photo to
    /// photo (coefficient of variation 0.08) than the score's own slope
    /// (0.13–0.19). Replayed the same way, searches by it averaged 2.18
    /// encodes against 2.39 by a slope of 1.05 points a step, at the same
    /// bytes within 0.5% (docs/benchmarks.md).
    public static let avifModel = QualitySearch.Model.distanceDecay(rate: 0.0316)

    /// The target a request is held to, or `nil` to write at the fixed
    /// quality: the configured mode's, lowered to
    /// ``Configuration/saveDataQualityTarget`` when `saveData`.
    func qualityTarget(saveData: Bool) -> Double? {
        switch configuration.qualityMode {
        case .fixed: saveData ? configuration.saveDataQualityTarget : nil
        case .auto(let target): saveData ? min(target, configuration.saveDataQualityTarget) : target
        }
    }

    /// Where a search for `target` starts: the median quality it chose
    /// for the 24 Kodak photos at 750 px at targets 65 and 55 (WebP 65.5
    /// and 45.5, AVIF 53 and 45.5; docs/benchmarks.md), on the line through
    /// them. Most photos land near it, so most searches save the encode at
    /// the ceiling a search starting there would make first.
    public static func startingQuality(for format: ImageFormat, target: Double) -> Int {
        let estimate = format == .avif ? 53 + 0.75 * (target - 65) : 65.5 + 2 * (target - 65)
        return Int(min(100, max(1, estimate.rounded(.up))))
    }

    /// The search for a `format` (WebP or AVIF) variant at `target`, from
    /// ``searchFloor`` up to `ceiling` (the fixed default quality), with
    /// the format's model and starting quality: the one way the origin and
    /// `convert` set one up.
    public static func search(for format: ImageFormat, target: Double, ceiling: Int) -> QualitySearch {
        QualitySearch(
            target: target, qualities: min(searchFloor, ceiling)...ceiling,
            model: format == .avif ? avifModel : webpModel, start: startingQuality(for: format, target: target))
    }

    /// The search for a WebP at `target`, up to the fixed default.
    func webpSearch(target: Double) -> QualitySearch {
        Self.search(for: .webp, target: target, ceiling: configuration.defaultWebPQuality)
    }

    /// The AVIF of `image` at the lowest quality reaching `target` against
    /// `reference` (up to the fixed default), and that quality.
    ///
    /// - Throws: ``ImageCodecError`` from the encoder or from decoding a trial.
    func searchedAVIF(_ image: Image, target: Double, against reference: Image) throws(ImageCodecError) -> (
        data: Data, quality: Int
    ) {
        let search = Self.search(for: .avif, target: target, ceiling: configuration.defaultAVIFQuality)
        let choice = try Self.searchAVIF(
            image, search: search, speed: configuration.avifSpeed, against: reference, scorerPlanes: scorerPlanes)
        return (choice.data, choice.quality)
    }

    /// The AVIF of `image` that `search` chooses, each trial decoded and
    /// compared with `reference` (`image` itself by default;
    /// ``QualitySearch/run(against:scorerPlanes:encode:decode:)``), the scorer's
    /// planes from `scorerPlanes` when given.
    ///
    /// - Throws: ``ImageCodecError`` from the encoder or from decoding a
    ///   trial, `.invalidArgument` when `reference` has another size.
    public static func searchAVIF(
        _ image: Image, search: QualitySearch, speed: Int, against reference: Image? = nil,
        scorerPlanes: SSIMULACRA2.PlanePool? = nil
    ) throws(ImageCodecError) -> QualitySearch.Choice {
        try search.run(against: reference ?? image, scorerPlanes: scorerPlanes) {
            (quality: Int) throws(ImageCodecError) -> Data in
            try AVIFEncoder(options: AVIFEncoder.Options(quality: quality, speed: speed)).encode(image)
        } decode: { (data: Data) throws(ImageCodecError) -> Image in
            try AVIFDecoder().decode(data)
        }
    }

    /// What a search scores its trials against: the picture the variant
    /// shows, resized in RGB from a decode at least twice its size.
    ///
    /// A JPEG is decoded scaled by its IDCT (n/8) to just cover the first
    /// resample, which is fast but softens fine detail: on the twelve demo
    /// photos at 750 px that decode scores 90.7–96.1 by SSIMULACRA 2
    /// against the photo decoded whole and resized. Scored against the
    /// variant's own pixels, a search counts that loss as headroom: in
    /// `make bench-quality` the demo photos' lowest score at target 65 was
    /// 63.5 against such a reference, and 65.35 against this one
    /// (docs/benchmarks.md). So the
    /// reference is decoded at the first n/8 scale covering twice the first
    /// stage's box (whole when that is not smaller), resized to the box and
    /// put through the same stages. `nil` when that is the variant's own
    /// image already: a source the decoder does not scale, or no resample.
    ///
    /// - Throws: ``ImageCodecError`` from decoding or resampling.
    func searchReference(
        _ source: Data, info: ImageInfo, stages: [ResampleStage]
    ) throws(ImageCodecError) -> Image? {
        guard info.format == .jpeg, let first = stages.first else { return nil }
        let box = ThumbnailGeometry(scaledWidth: first.width, scaledHeight: first.height)
            .decodingBox(width: info.width, height: info.height)
        // The decoder scales by n/8 to cover twice the box, then resamples to the box, as the
        // variant's own decode does from the n/8 that covers it once.
        let options = JPEGDecoder.Options(fitting: (box.width, box.height), coverage: 2)
        var reference = try JPEGDecoder(limits: configuration.limits).decode(source, options: options)
        for stage in stages { reference = try stage.apply(to: reference) }
        return reference
    }
}

extension ImageTransformer.Output {
    /// ``ImageTransformer/qualityField``'s value: the searched quality
    /// (`"72"`), `"lossless"`, or `nil` when no search ran.
    public var qualityFieldValue: String? {
        searchedQuality.map { $0 == 0 ? "lossless" : String($0) }
    }
}
