public import Foundation
public import WebPBridge

extension VariantEncoding {
    /// The lossy WebP of a photo decoded to planes
    /// (``JPEGDecoder/decodeYUV420(_:width:height:)``): a JPEG source is a
    /// photo, written lossy only, as ``encode(_:sourceFormat:)`` does.
    ///
    /// - Throws: ``ImageCodecError`` from the encoder.
    public func encode(_ image: YUV420Image) throws(ImageCodecError) -> Data {
        try WebPEncoder(options: lossyOptions).encode(image)
    }
}
