/// Where a pipeline result came from.
public enum ImageSource: String, Sendable, Equatable, Codable {
    /// The decoded-image memory cache.
    case memory
    /// A fresh entry of the disk cache.
    case disk
    /// A stale disk entry that the server confirmed with 304.
    case revalidated
    /// The network.
    case network
}
