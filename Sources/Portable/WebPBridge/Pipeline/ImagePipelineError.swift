import Foundation

/// Why the pipeline could not deliver an image: both the variant and the
/// original failed (or there was no variant and the original failed), the
/// upstream redirected and the caller asked to be told
/// (``RedirectHandling/report``), the caller was cancelled, the decode
/// queue was full, or a cache-only request missed. The one error type the pipeline's entry points throw.
public struct ImagePipelineError: Error, Sendable, CustomStringConvertible {
    private enum Kind: Sendable {
        case http(Int)
        case loading(DataLoadingError)
        case notAnImage(String)
        case decoding(ImageCodecError)
        case redirect(ImageRedirect)
        case refusedRedirect(ImageRedirect, reason: String)
        case cancelled
        case decodeQueueFull
        case notCached
    }

    private let kind: Kind
    /// The URL whose failure is reported (the original's, after a fallback).
    public let url: String

    private init(kind: Kind, url: String) {
        self.kind = kind
        self.url = url
    }

    static func http(_ status: Int, url: String) -> ImagePipelineError { .init(kind: .http(status), url: url) }
    static func loading(_ error: DataLoadingError, url: String) -> ImagePipelineError {
        .init(kind: .loading(error), url: url)
    }
    static func notAnImage(_ detail: String, url: String) -> ImagePipelineError {
        .init(kind: .notAnImage(detail), url: url)
    }
    static func decoding(_ error: ImageCodecError, url: String) -> ImagePipelineError {
        .init(kind: .decoding(error), url: url)
    }
    static func notCached(url: String) -> ImagePipelineError { .init(kind: .notCached, url: url) }
    static func redirect(_ redirect: ImageRedirect) -> ImagePipelineError {
        .init(kind: .redirect(redirect), url: redirect.redirectedURL.absoluteString)
    }

    static func refusedRedirect(_ redirect: ImageRedirect, reason: String) -> ImagePipelineError {
        .init(kind: .refusedRedirect(redirect, reason: reason), url: redirect.redirectedURL.absoluteString)
    }

    /// What the pipeline's internals threw, as the one error its entry
    /// points throw: cancellation (the caller's task, or its fetch), a full
    /// decode queue, a codec's failure; anything else cannot happen, and is
    /// reported as a failure of `url` that names it rather than lost.
    init(_ error: any Error, url: String) {
        switch error {
        case let error as ImagePipelineError: self = error
        case is CancellationError: self.init(kind: .cancelled, url: url)
        case is WorkQueue.Full: self.init(kind: .decodeQueueFull, url: url)
        case let error as ImageCodecError: self.init(kind: .decoding(error), url: url)
        case let error as DataLoadingError: self.init(kind: .loading(error), url: url)
        default: self.init(kind: .notAnImage("unexpected failure: \(error)"), url: url)
        }
    }

    /// The HTTP status the server answered, when that was the failure.
    public var httpStatus: Int? {
        if case .http(let status) = kind { return status }
        return nil
    }

    /// The transport error, when that was the failure.
    public var loadingError: DataLoadingError? {
        if case .loading(let error) = kind { return error }
        return nil
    }

    /// The codec's error when neither the variant nor the original
    /// decoded (`.unsupported` when the configured codec has no decoder for
    /// the format).
    public var decodingError: ImageCodecError? {
        if case .decoding(let error) = kind { return error }
        return nil
    }

    /// The redirect the upstream answered with, when the caller asked for
    /// redirects to be reported (``RedirectHandling/report``) rather than
    /// followed. Not a failure of the image: the caller is to ask for
    /// ``ImageRedirect/location`` instead.
    public var redirect: ImageRedirect? {
        if case .redirect(let redirect) = kind { return redirect }
        return nil
    }

    /// A redirect the pipeline did not follow: its target is outside the
    /// configuration's ``RedirectPolicy``, or it came after the policy's
    /// last allowed hop. The target was not fetched. A failure of the URL
    /// that redirected (a variant's falls back to the original).
    public var refusedRedirect: ImageRedirect? {
        if case .refusedRedirect(let redirect, _) = kind { return redirect }
        return nil
    }

    /// Whether the failure was a cancellation: the caller's task, or the transfer.
    public var isCancellation: Bool {
        if case .cancelled = kind { return true }
        return loadingError?.kind == .cancelled
    }

    /// Whether the image could not be decoded now because the decode queue
    /// was full (``ImagePipeline/Configuration/decodingConcurrency``): a
    /// moment later it may be.
    public var isDecodeQueueFull: Bool {
        if case .decodeQueueFull = kind { return true }
        return false
    }

    /// Whether the request was cache-only (``ImageRequest/CachePolicy/cacheOnly``)
    /// and neither the variant nor the original was cached.
    public var isNotCached: Bool {
        if case .notCached = kind { return true }
        return false
    }

    public var description: String {
        switch kind {
        case .http(let status): "\(url): HTTP \(status)"
        case .loading(let error): "\(url): \(error.message)"
        case .notAnImage(let detail): "\(url): not an image (\(detail))"
        case .decoding(let error): "\(url): \(error.message)"
        case .redirect(let redirect):
            "\(url): redirected (HTTP \(redirect.statusCode)) to \(redirect.location.absoluteString)"
        case .refusedRedirect(let redirect, let reason):
            "\(url): redirect (HTTP \(redirect.statusCode)) to \(redirect.location.absoluteString)"
                + " not followed: \(reason)"
        case .cancelled: "\(url): cancelled"
        case .decodeQueueFull: "\(url): the decode queue is full"
        case .notCached: "\(url): not cached, and the request is cache-only"
        }
    }
}
