public import Foundation

/// A fresh folder under the system temporary directory, removed when the
/// value is deinitialised.
public final class TemporaryDirectory: Sendable {
    /// The folder.
    public let url: URL

    /// Creates the folder.
    public init(prefix: String = "webp-bridge-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the folder.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}
