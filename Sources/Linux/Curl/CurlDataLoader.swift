// Linux (and any platform whose manifest provides libcurl): the curl loader.
#if canImport(CCurl)
    internal import CCurl
    public import Foundation

    /// A ``DataLoading`` over libcurl: the default on Linux, where it stays flat
    /// in memory over hundreds of thousands of requests (URLSession there does
    /// not).
    ///
    /// Every transfer runs on one libcurl multi handle driven by one dedicated
    /// thread, so connections are kept alive and reused across requests (up to
    /// ``Configuration-swift.struct/maxIdleConnections`` idle ones) and easy
    /// handles are pooled rather than allocated per request. HTTP/1.1, `http`
    /// and `https` only; redirects are returned, never followed (the pipeline
    /// follows them within its ``RedirectPolicy``).
    ///
    /// ```swift
    /// let loader = CurlDataLoader()
    /// let response = try await loader.load(DataRequest(url: url))
    /// ```
    ///
    /// Thread-safe: `load` may be called from any number of tasks at once. The
    /// loader's only mutable state is the driver's command queue, guarded by a
    /// `Lock`; libcurl's handles are touched only on the curl thread. Create one
    /// loader and share it; dropping it ends its thread.
    public final class CurlDataLoader: DataLoading {
        /// The configuration the loader was created with.
        public let configuration: Configuration
        /// The driver, or why libcurl could not be set up (`curl_global_init`
        /// or `curl_multi_init` failed): then every load throws that error.
        private let driver: Result<CurlMultiDriver, DataLoadingError>

        /// Creates a loader and starts its thread.
        ///
        /// When libcurl cannot be initialised (`curl_global_init` fails, or no
        /// multi handle can be allocated) no thread is started, and every
        /// ``load(_:onChunk:)`` throws that `networkFailure`, with libcurl's message.
        /// - Parameter configuration: Connect timeout, connection and handle
        ///   pool sizes, user agent.
        public convenience init(configuration: Configuration = Configuration()) {
            self.init(configuration: configuration, globalInitCode: CurlGlobal.result.rawValue)
        }

        /// A loader as it is when `curl_global_init` returned `globalInitCode` (a
        /// `CURLcode`); tests pass a failure, which cannot be provoked otherwise.
        init(configuration: Configuration, globalInitCode: UInt32) {
            self.configuration = configuration
            driver = Result { () throws(DataLoadingError) in
                try CurlMultiDriver(configuration: configuration, globalInit: CURLcode(rawValue: globalInitCode))
            }
        }

        deinit {
            if case .success(let driver) = driver { driver.shutdown() }
        }

        /// Loads `request`; see ``DataLoading/load(_:onChunk:)``.
        /// - Parameters:
        ///   - request: What to fetch.
        ///   - onChunk: Called on the loader's thread with each piece of the body
        ///     as it arrives; keep it short.
        /// - Returns: The response, with any status (a redirect is returned as it is).
        /// - Throws: ``DataLoadingError``: `timedOut`, `cannotConnect`,
        ///   `tooLarge`, `cancelled`, `unsupportedURL` or `networkFailure`, with
        ///   libcurl's message (also when libcurl could not be initialised).
        public func load(_ request: DataRequest, onChunk: (@Sendable (Data) -> Void)?) async throws(DataLoadingError)
            -> DataResponse
        {
            guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                throw DataLoadingError(
                    .unsupportedURL, "\(request.url.absoluteString): only http and https are fetched")
            }
            let driver = try self.driver.get()
            let transfer = CurlTransfer(request: request, onChunk: onChunk)
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in driver.submit(transfer, continuation) }
            } onCancel: {
                driver.cancel(transfer)
            }
            return try result.get()
        }
    }
#endif
