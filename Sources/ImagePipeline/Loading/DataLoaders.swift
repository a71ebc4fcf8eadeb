/// The loader each platform should use by default: ``CurlDataLoader`` on
/// Linux (URLSession there grows without bound in a long-running process),
/// ``URLSessionDataLoader`` on Apple platforms.
#if os(Linux)
public typealias DefaultDataLoader = CurlDataLoader
#else
public typealias DefaultDataLoader = URLSessionDataLoader
#endif

/// Ready-made data loaders.
public enum DataLoaders {
    /// One shared ``DefaultDataLoader`` for the process, created on first
    /// use; sharing it shares its connections.
    public static let platformDefault: any DataLoading = DefaultDataLoader()
}
