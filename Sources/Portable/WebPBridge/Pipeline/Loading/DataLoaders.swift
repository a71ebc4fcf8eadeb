#if canImport(CCurl)
    /// The loader each platform should use by default: `CurlDataLoader` on
    /// Linux (where the manifest provides libcurl), where URLSession grows
    /// without bound in a long-running process.
    public typealias DefaultDataLoader = CurlDataLoader
#else
    /// The loader each platform should use by default: ``URLSessionDataLoader``
    /// on Apple platforms (and wherever libcurl is not provided).
    public typealias DefaultDataLoader = URLSessionDataLoader
#endif

/// Ready-made data loaders.
public enum DataLoaders {
    /// One shared ``DefaultDataLoader`` for the process, created on first
    /// use; sharing it shares its connections.
    public static let platformDefault: any DataLoading = DefaultDataLoader()
}
