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

    /// The lossy WebP of `image` at the lowest quality whose decode reaches
    /// `search`'s target against `reference` (the image itself by default;
    /// ``ImageTransformer`` passes a finer resize of a JPEG source), its
    /// ceiling when none does; a graphic is then also written lossless
    /// once, and the smaller kept, as ``encode(_:sourceFormat:)`` does.
    /// The scorer's planes come from `scorerPlanes` when given.
    ///
    /// - Throws: ``ImageCodecError`` from the encoder or from decoding a
    ///   trial, `.invalidArgument` when `reference` has another size.
    public func encode(
        _ image: Image, sourceFormat: ImageFormat, searching search: QualitySearch, against reference: Image? = nil,
        scorerPlanes: SSIMULACRA2.PlanePool? = nil
    ) throws(ImageCodecError) -> SearchedWebP {
        let lossy = try searchedLossy(search, against: reference ?? image, scorerPlanes: scorerPlanes) {
            encoder throws(ImageCodecError) in
            try encoder.encode(image)
        }
        guard triesLossless(image, sourceFormat: sourceFormat) else { return lossy }
        let lossless = try WebPEncoder(options: losslessOptions).encode(image)
        guard lossless.count < lossy.data.count else {
            return SearchedWebP(data: lossy.data, quality: lossy.quality, encodes: lossy.encodes + 1)
        }
        return SearchedWebP(data: lossless, quality: nil, encodes: lossy.encodes + 1)
    }

    /// The lossy WebP of a photo decoded to planes, at the lowest quality
    /// whose decode (to RGB, as a browser shows it) reaches `search`'s
    /// target against `reference`, the same picture in RGB. The scorer's
    /// planes come from `scorerPlanes` when given.
    ///
    /// - Throws: ``ImageCodecError`` from the encoder or from decoding a
    ///   trial, `.invalidArgument` when `reference` has another size.
    public func encode(
        _ planes: YUV420Image, searching search: QualitySearch, against reference: Image,
        scorerPlanes: SSIMULACRA2.PlanePool? = nil
    ) throws(ImageCodecError) -> SearchedWebP {
        try searchedLossy(search, against: reference, scorerPlanes: scorerPlanes) { encoder throws(ImageCodecError) in
            try encoder.encode(planes)
        }
    }

    /// The one lossy search both inputs share: `encode` with a lossy
    /// encoder at each quality `search` tries, each trial decoded and scored
    /// against `reference` (``QualitySearch/run(against:scorerPlanes:encode:decode:)``).
    private func searchedLossy(
        _ search: QualitySearch, against reference: Image, scorerPlanes: SSIMULACRA2.PlanePool?,
        encode: (WebPEncoder) throws(ImageCodecError) -> Data
    ) throws(ImageCodecError) -> SearchedWebP {
        let choice = try search.run(against: reference, scorerPlanes: scorerPlanes) {
            (quality: Int) throws(ImageCodecError) -> Data in
            var encoding = self
            encoding.quality = quality
            return try encode(WebPEncoder(options: encoding.lossyOptions))
        } decode: { (data: Data) throws(ImageCodecError) -> Image in
            try WebPDecoder().decode(data)
        }
        return SearchedWebP(data: choice.data, quality: choice.quality, encodes: choice.encodes)
    }
}
