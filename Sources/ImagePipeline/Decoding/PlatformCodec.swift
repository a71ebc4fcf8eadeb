public import ImageCoding

#if canImport(ImageCodecs)
    // Linux: the manifest makes this target depend on the C codecs there only.
    internal import ImageCodecs
#endif

extension ImagePipeline {
    /// The codec a pipeline decodes with unless told otherwise: the C
    /// libraries (`CImageCodec`) where the manifest provides them (Linux),
    /// otherwise ImageIO (`ImageIOCodec`, Apple platforms), and where
    /// neither exists ``NoImageCodec`` (bytes only, nothing decoded).
    public static var platformCodec: any ImageCodec {
        #if canImport(ImageCodecs)
            CImageCodec()
        #elseif canImport(ImageIO)
            ImageIOCodec()
        #else
            NoImageCodec()
        #endif
    }
}
