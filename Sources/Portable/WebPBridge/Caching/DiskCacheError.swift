/// Why a ``DiskCache`` could not be opened.
///
/// A struct over a private enum, so new cases can be added without breaking
/// callers. `Sendable`.
public struct DiskCacheError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Reason: Equatable {
        case cannotCreateFolder(path: String, message: String)
        case cannotListFolder(path: String, message: String)
        case invalidConfiguration(String)
    }

    private let reason: Reason

    private init(_ reason: Reason) { self.reason = reason }

    static func cannotCreateFolder(_ path: String, _ message: String) -> DiskCacheError {
        DiskCacheError(.cannotCreateFolder(path: path, message: message))
    }

    static func cannotListFolder(_ path: String, _ message: String) -> DiskCacheError {
        DiskCacheError(.cannotListFolder(path: path, message: message))
    }

    static func invalidConfiguration(_ message: String) -> DiskCacheError {
        DiskCacheError(.invalidConfiguration(message))
    }

    /// What went wrong and what to do about it.
    public var description: String {
        switch reason {
        case .cannotCreateFolder(let path, let message):
            "cannot create the disk cache folder \(path): \(message) (choose a writable --cache-dir)"
        case .cannotListFolder(let path, let message):
            "cannot read the disk cache folder \(path): \(message) (check its permissions)"
        case .invalidConfiguration(let message):
            "invalid disk cache configuration: \(message)"
        }
    }
}
