#if canImport(CWebP)
    // Linux: the manifest makes this target depend on the C codecs there only.
#endif

extension ImagePipeline {
    /// The codec a pipeline decodes with unless told otherwise: the C
    /// libraries (`CImageCodec`) where the manifest provides them (Linux),
    /// otherwise ImageIO (`ImageIOCodec`, Apple platforms), and where
    /// neither exists ``NoImageCodec`` (bytes only, nothing decoded).
    public static var platformCodec: any ImageCodec {
        #if canImport(CWebP)
            CImageCodec()
        #elseif canImport(ImageIO)
            ImageIOCodec()
        #else
            NoImageCodec()
        #endif
    }
}
