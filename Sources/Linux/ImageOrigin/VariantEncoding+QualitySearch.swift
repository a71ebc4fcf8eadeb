public import Foundation
public import WebPBridge

extension VariantEncoding {
    /// A WebP chosen by `search` and the quality it was written at (`nil`
    /// when lossless won).
    public struct SearchedWebP: Sendable {
        public var data: Data
        public var quality: Int?
        /// Encodes made, lossy and lossless.
        public var encodes: Int
    }

    /// The lossy WebP of `image` at the lowest quality that reaches
    /// `search`'s target (its ceiling when none does), compared with
    /// `image` itself; a graphic is then also written lossless once, and
    /// the smaller kept, as ``encode(_:sourceFormat:)`` does.
    ///
    /// - Throws: ``ImageCodecError`` from the encoder or from decoding a trial.
    public func encode(
        _ image: Image, sourceFormat: ImageFormat, searching search: QualitySearch
    ) throws(ImageCodecError) -> SearchedWebP {
        let lossy = try searchedLossy(against: LumaPlane(image), search) { encoder throws(ImageCodecError) in
            try encoder.encode(image)
        }
        guard triesLossless, Self.content(of: image, sourceFormat: sourceFormat) == .graphic else { return lossy }
        let lossless = try WebPEncoder(options: losslessOptions).encode(image)
        guard lossless.count < lossy.data.count else {
            return SearchedWebP(data: lossy.data, quality: lossy.quality, encodes: lossy.encodes + 1)
        }
        return SearchedWebP(data: lossless, quality: nil, encodes: lossy.encodes + 1)
    }

    /// The lossy WebP of a photo decoded to planes, at the lowest quality
    /// that reaches `search`'s target; compared with the Y plane that was
    /// encoded (``LumaPlane/init(_:)-YUV``).
    ///
    /// - Throws: ``ImageCodecError`` from the encoder or from decoding a trial.
    public func encode(_ planes: YUV420Image, searching search: QualitySearch) throws(ImageCodecError) -> SearchedWebP {
        try searchedLossy(against: LumaPlane(planes), search) { encoder throws(ImageCodecError) in
            try encoder.encode(planes)
        }
    }

    /// The one lossy search both inputs share: `encode` with a lossy
    /// encoder at each quality `search` tries, scored against `reference`.
    private func searchedLossy(
        against reference: LumaPlane, _ search: QualitySearch,
        encode: (WebPEncoder) throws(ImageCodecError) -> Data
    ) throws(ImageCodecError) -> SearchedWebP {
        let choice = try search.run { (quality: Int) throws(ImageCodecError) -> QualitySearch.Trial in
            var encoding = self
            encoding.quality = quality
            return try Self.trial(encode(WebPEncoder(options: encoding.lossyOptions)), against: reference)
        }
        return SearchedWebP(data: choice.data, quality: choice.quality, encodes: choice.encodes)
    }

    /// `data` decoded and scored against `reference`.
    static func trial(_ data: Data, against reference: LumaPlane) throws(ImageCodecError) -> QualitySearch.Trial {
        let decoded = try WebPDecoder().decode(data)
        return QualitySearch.Trial(data: data, score: try QualitySearch.score(reference, LumaPlane(decoded)))
    }
}
