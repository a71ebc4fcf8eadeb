internal import CWebP
public import Foundation

extension WebPEncoder {
    /// Encodes 4:2:0 planes lossy, as they are: libwebp's picture holds
    /// Y′CbCr (`use_argb = 0`), so it converts nothing before coding.
    ///
    /// ``Options/usesSharpYUV`` does not apply (it is a way of converting
    /// from RGB) and is ignored.
    ///
    /// - Throws: ``ImageCodecError`` `.invalidArgument` for lossless options
    ///   (which code RGB) or sizes above 16,383 pixels a side, and for
    ///   invalid options as ``encode(_:)-(Image)`` does.
    public func encode(_ image: YUV420Image) throws(ImageCodecError) -> Data {
        guard !options.lossless else {
            throw ImageCodecError.invalidArgument(.webp, "lossless WebP is coded from RGB, not from YUV planes")
        }
        guard image.width <= maxDimension, image.height <= maxDimension else {
            throw ImageCodecError(
                .invalidArgument, format: .webp,
                "\(image.width)x\(image.height) is larger than WebP allows (16,383 pixels a side)")
        }
        var config = try makeConfig()
        config.use_sharp_yuv = 0
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw ImageCodecError(.unsupported, format: .webp, "libwebp version mismatch")
        }
        picture.use_argb = 0
        picture.colorspace = WEBP_YUV420
        picture.width = Int32(image.width)
        picture.height = Int32(image.height)
        guard WebPPictureAlloc(&picture) != 0 else {
            throw ImageCodecError(.outOfMemory, format: .webp, "cannot allocate the WebP picture")
        }
        defer { WebPPictureFree(&picture) }
        Self.copy(image.y, width: image.width, height: image.height, into: picture.y, stride: picture.y_stride)
        Self.copy(
            image.u, width: image.chromaWidth, height: image.chromaHeight, into: picture.u, stride: picture.uv_stride)
        Self.copy(
            image.v, width: image.chromaWidth, height: image.chromaHeight, into: picture.v, stride: picture.uv_stride)
        return try Self.write(&picture, config: &config)
    }

    /// Copies a tight plane into libwebp's strided one.
    private static func copy(
        _ plane: [UInt8], width: Int, height: Int, into destination: UnsafeMutablePointer<UInt8>?, stride: Int32
    ) {
        guard let destination else { return }
        plane.withUnsafeBufferPointer { source in
            guard let source = source.baseAddress else { return }
            for row in 0..<height {
                (destination + row * Int(stride)).update(from: source + row * width, count: width)
            }
        }
    }
}
