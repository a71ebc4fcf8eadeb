import Foundation
import ImagePipeline
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// **Interim** `DataLoading` on URLSession, until the libcurl loader lands
/// (see ``makeDataLoader()``); not for long-running use on Linux, where
/// URLSession grows without bound.
///
/// It sends `Accept-Encoding: identity`: URLSession on Linux decodes gzip
/// bodies itself but keeps the `Content-Encoding` header, which would hand a
/// proxy's client a decoded body labelled as gzip. Two sessions: one that
/// follows redirects, one that returns them (the bridge's passthrough).
final class InterimURLSessionLoader: DataLoading, Sendable {
    private let following: URLSession
    private let notFollowing: URLSession

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        following = URLSession(configuration: configuration)
        notFollowing = URLSession(configuration: configuration, delegate: RedirectRefuser(), delegateQueue: nil)
    }

    deinit {
        following.finishTasksAndInvalidate()
        notFollowing.finishTasksAndInvalidate()
    }

    func load(_ request: DataRequest, onChunk: (@Sendable (Data) -> Void)?) async throws(DataLoadingError)
        -> DataResponse
    {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        let seconds = Double(request.timeout.components.seconds) + Double(request.timeout.components.attoseconds) / 1e18
        urlRequest.timeoutInterval = seconds
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        urlRequest.httpBody = request.body
        let session = request.followsRedirects ? following : notFollowing
        let prepared = urlRequest
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await withDeadline(seconds) {
                try await session.data(for: prepared)
            }
        } catch let error as DataLoadingError {
            throw error
        } catch is CancellationError {
            throw DataLoadingError(.cancelled, "\(request.url.absoluteString): cancelled")
        } catch let error as URLError {
            throw Self.translate(error, url: request.url)
        } catch {
            throw DataLoadingError(.networkFailure, "\(request.url.absoluteString): \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else {
            throw DataLoadingError(.networkFailure, "\(request.url.absoluteString): not an HTTP response")
        }
        guard data.count <= request.maxBodyBytes else {
            throw DataLoadingError(
                .tooLarge, "\(request.url.absoluteString): the body passed the limit of \(request.maxBodyBytes) bytes")
        }
        onChunk?(data)
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            guard let name = name as? String, let value = value as? String else { continue }
            headers[name] = value
        }
        // The body is already decoded (see the type's documentation).
        headers = headers.filter { $0.key.lowercased() != "content-encoding" }
        return DataResponse(url: http.url ?? request.url, statusCode: http.statusCode, headers: headers, body: data)
    }

    private static func translate(_ error: URLError, url: URL) -> DataLoadingError {
        let message = "\(url.absoluteString): \(error.localizedDescription)"
        switch error.code {
        case .timedOut: return DataLoadingError(.timedOut, message)
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
            return DataLoadingError(.cannotConnect, message)
        case .cancelled: return DataLoadingError(.cancelled, message)
        case .unsupportedURL: return DataLoadingError(.unsupportedURL, message)
        case .dataLengthExceedsMaximum: return DataLoadingError(.tooLarge, message)
        default: return DataLoadingError(.networkFailure, message)
        }
    }

    /// Runs `work`, failing with `timedOut` when it takes longer than
    /// `seconds` (URLSession's own interval is an idle timeout, not a deadline).
    private func withDeadline<T: Sendable>(
        _ seconds: Double, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                throw DataLoadingError(.timedOut, "timed out after \(seconds) s")
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }
}

/// Returns redirects to the caller instead of following them.
private final class RedirectRefuser: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
