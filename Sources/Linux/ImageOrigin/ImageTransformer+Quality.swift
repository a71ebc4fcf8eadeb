import Foundation
public import WebPBridge

extension ImageTransformer {
    /// How the quality of a lossy variant (WebP, AVIF) is chosen when the
    /// request names none (`/quality/N`, `/q/N` always win).
    public enum QualityMode: Sendable, Equatable, CustomStringConvertible {
        /// ``Configuration/defaultWebPQuality`` and
        /// ``Configuration/defaultAVIFQuality`` for every image.
        case fixed
        /// Per image, the lowest quality whose ``QualitySearch/score(_:_:)`` against the
        /// resized source reaches `target` (``QualitySearch``), never above
        /// the fixed default: an image that needs more than the default to
        /// reach the target gets the default, as it would today, so no
        /// variant is bigger than with `.fixed`.
        case auto(target: Double)

        /// The target `--quality auto` uses: the lowest at which no Kodak
        /// photo (16 of them, 750 px, WebP q30–95 and AVIF q30–80) scored by
        /// SSIMULACRA 2 fell below the lowest score of the fixed q80 WebP /
        /// q60 AVIF (docs/benchmarks.md, "Quality chosen per image").
        public static let defaultTarget = 0.9925
        /// How far a request asking for less data (`Save-Data: on`) lowers
        /// the target: ``Configuration/saveDataQualityTarget`` defaults to
        /// ``defaultTarget`` minus this, 0.985 (on the Kodak photos 34–47%
        /// fewer bytes than the fixed quality, lowest SSIMULACRA 2 46–55).
        public static let saveDataReduction = 0.0075
        /// Targets `--quality auto:TARGET` accepts: below 0.5 every image
        /// would look broken; at 1 only a lossless encode reaches it.
        public static let targets: ClosedRange<Double> = 0.5...0.999

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
            guard let target = Double(text), text.allSatisfy({ $0.isNumber || $0 == "." }),
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
    /// `log(1 − score)` per quality step the predictor assumes for WebP:
    /// the median over 16 Kodak photos at 750 px of the least-squares slope
    /// between q40 and q80 (−0.019 to −0.030; docs/benchmarks.md).
    public static let webpSlope = -0.025
    /// The same for AVIF, between q40 and q80 (−0.046 to −0.071).
    public static let avifSlope = -0.058

    /// The target a request is held to, or `nil` to write at the fixed
    /// quality: the configured mode's, lowered to
    /// ``Configuration/saveDataQualityTarget`` when `saveData`.
    func qualityTarget(saveData: Bool) -> Double? {
        switch configuration.qualityMode {
        case .fixed: saveData ? configuration.saveDataQualityTarget : nil
        case .auto(let target): saveData ? min(target, configuration.saveDataQualityTarget) : target
        }
    }

    /// The search for a WebP at `target`, up to the fixed default.
    func webpSearch(target: Double) -> QualitySearch {
        let ceiling = configuration.defaultWebPQuality
        return QualitySearch(target: target, qualities: min(Self.searchFloor, ceiling)...ceiling, slope: Self.webpSlope)
    }

    /// The AVIF of `image` at the lowest quality reaching `target` (up to
    /// the fixed default), and that quality.
    ///
    /// - Throws: ``ImageCodecError`` from the encoder or from decoding a trial.
    func searchedAVIF(_ image: Image, target: Double) throws(ImageCodecError) -> (data: Data, quality: Int) {
        let ceiling = configuration.defaultAVIFQuality
        let search = QualitySearch(
            target: target, qualities: min(Self.searchFloor, ceiling)...ceiling, slope: Self.avifSlope)
        let choice = try Self.searchAVIF(image, search: search, speed: configuration.avifSpeed)
        return (choice.data, choice.quality)
    }

    /// The AVIF of `image` that `search` chooses, each trial decoded and
    /// compared with `image`.
    ///
    /// - Throws: ``ImageCodecError`` from the encoder or from decoding a trial.
    public static func searchAVIF(
        _ image: Image, search: QualitySearch, speed: Int
    ) throws(ImageCodecError) -> QualitySearch.Choice {
        let reference = LumaPlane(image)
        return try search.run { (quality: Int) throws(ImageCodecError) -> QualitySearch.Trial in
            let data = try AVIFEncoder(options: AVIFEncoder.Options(quality: quality, speed: speed)).encode(image)
            let decoded = try AVIFDecoder().decode(data)
            return QualitySearch.Trial(data: data, score: try QualitySearch.score(reference, LumaPlane(decoded)))
        }
    }
}

extension ImageTransformer.Output {
    /// ``ImageTransformer/qualityField``'s value: the searched quality
    /// (`"72"`), `"lossless"`, or `nil` when no search ran.
    public var qualityFieldValue: String? {
        searchedQuality.map { $0 == 0 ? "lossless" : String($0) }
    }
}
