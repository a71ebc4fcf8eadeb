public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A ``DataLoading`` over `URLSession`: the default on Apple platforms.
///
/// On Linux it works but grows about 0.15 MB per 1,000 requests and never
/// gives it back (inside the libcurl that FoundationNetworking drives), so a
/// long-running process there should use ``CurlDataLoader``.
///
/// One session, with a delegate that streams the body to `onChunk`,
/// enforces ``DataRequest/maxBodyBytes`` while receiving, returns every
/// redirect instead of following it and enforces ``DataRequest/timeout``
/// over the whole transfer.
///
/// Thread-safe: the in-flight tasks live in a `Lock`-guarded table inside
/// the session's delegate. Create one loader and share it; dropping it
/// cancels what is still running.
public final class URLSessionDataLoader: DataLoading {
    private let session: URLSession
    private let delegate: URLSessionLoaderDelegate

    /// Creates a loader with its own session.
    /// - Parameter configuration: The session configuration; by default an
    ///   ephemeral one with no URL cache and no cookies (the pipeline has its
    ///   own cache).
    public init(configuration: URLSessionConfiguration = URLSessionDataLoader.defaultConfiguration()) {
        delegate = URLSessionLoaderDelegate()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "webp-bridge.urlsession"
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// An ephemeral configuration without URL cache, cookies or credentials
    /// storage.
    public static func defaultConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }

    /// Loads `request`; see ``DataLoading/load(_:onChunk:)``.
    /// - Parameters:
    ///   - request: What to fetch.
    ///   - onChunk: Called on the session's delegate queue with each piece of
    ///     the body as it arrives; keep it short.
    /// - Returns: The response, with any status (a redirect is returned as it is).
    /// - Throws: ``DataLoadingError``: `timedOut`, `cannotConnect`,
    ///   `tooLarge`, `cancelled`, `unsupportedURL` or `networkFailure`, with
    ///   Foundation's message.
    public func load(_ request: DataRequest, onChunk: (@Sendable (Data) -> Void)?) async throws(DataLoadingError)
        -> DataResponse
    {
        let label = "\(request.method) \(request.url.absoluteString)"
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw DataLoadingError(.unsupportedURL, "\(request.url.absoluteString): only http and https are fetched")
        }
        let seconds =
            Double(request.timeout.components.seconds)
            + Double(request.timeout.components.attoseconds) / 1e18
        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: max(seconds, 0.001))
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        // URLRequest keeps one value per name: repeated fields are joined there.
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        let task = session.dataTask(with: urlRequest)
        task.priority = request.priority.transferPriority
        let handle = URLSessionLoaderDelegate.TaskHandle(task)
        let id = task.taskIdentifier
        let delegate = self.delegate
        delegate.register(id, request: request, label: label, onChunk: onChunk)
        // URLSession's timeouts are per idle interval; the request's is for
        // the whole transfer. A sleeping task, not a dispatch timer: a
        // cancelled sleep is freed at once, a cancelled timer only when due.
        let deadline = Task {
            guard (try? await Task.sleep(for: request.timeout)) != nil else { return }
            delegate.fail(id, DataLoadingError(.timedOut, "\(label): timed out after \(request.timeout)"))
            handle.task.cancel()
        }
        defer { deadline.cancel() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if delegate.attach(continuation, to: id) { handle.task.resume() } else { handle.task.cancel() }
            }
        } onCancel: {
            delegate.fail(id, DataLoadingError(.cancelled, "\(label): cancelled"))
            handle.task.cancel()
        }
        return try result.get()
    }
}
