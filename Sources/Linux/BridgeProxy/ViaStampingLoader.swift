public import Foundation
public import WebPBridge

/// Wraps a data loader so that every request it sends carries the bridge's
/// `Via` entry. Build the bridge's ``ImagePipeline`` with it: then the
/// pipeline's image fetches are loop-protected like passthrough requests,
/// and a bridge pointed at itself answers 508 instead of recursing.
public struct ViaStampingLoader: DataLoading {
    private let base: any DataLoading
    private let via: ViaHeader

    /// Creates the wrapper.
    /// - Parameters:
    ///   - base: The loader that does the work.
    ///   - viaToken: The bridge's ``BridgeProxy/Configuration/viaToken``.
    public init(wrapping base: any DataLoading, viaToken: String = "webp-bridge") {
        self.base = base
        via = ViaHeader(token: viaToken)
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
        request.headers["Via"] = via.appended(to: request.headers.combinedValue(for: "Via"))
        return try await base.load(request, onChunk: onChunk)
    }
}
