public import Foundation
public import ImagePipeline

/// Wraps a data loader so that every request it sends carries the bridge's
/// `Via` entry. Build the bridge's ``ImagePipeline`` with it: then the
/// pipeline's image fetches are loop-protected like passthrough requests,
/// and a bridge pointed at itself answers 508 instead of recursing.
public struct ViaStampingLoader: DataLoading {
    private let base: any DataLoading
    private let entry: String

    /// Creates the wrapper.
    /// - Parameters:
    ///   - base: The loader that does the work.
    ///   - viaToken: The bridge's ``BridgeProxy/Configuration/viaToken``.
    public init(wrapping base: any DataLoading, viaToken: String = "webp-bridge") {
        self.base = base
        entry = ViaHeader(token: viaToken).entry()
    }

    /// Loads `request` through the wrapped loader with `Via` added.
    /// - Parameters:
    ///   - request: The request.
    ///   - onChunk: Passed to the wrapped loader.
    /// - Returns: The wrapped loader's response.
    /// - Throws: The wrapped loader's ``DataLoadingError``.
    public func load(_ request: DataRequest, onChunk: (@Sendable (Data) -> Void)?) async throws(DataLoadingError)
        -> DataResponse
    {
        var request = request
        let existing = request.headers.first { $0.key.lowercased() == "via" }
        if let existing {
            request.headers[existing.key] = existing.value + ", " + entry
        } else {
            request.headers["Via"] = entry
        }
        return try await base.load(request, onChunk: onChunk)
    }
}
