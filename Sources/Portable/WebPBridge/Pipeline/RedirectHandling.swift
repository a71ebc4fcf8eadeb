public import Foundation

/// What ``ImageRequest/redirects`` does when the upstream answers
/// a fetch with a redirect (`301`, `302`, `303`, `307` or `308` with a
/// `Location`).
public enum RedirectHandling: Sendable, Hashable {
    /// Follow it, hop by hop, within the configuration's
    /// ``RedirectPolicy`` (five hops to any `http` or `https` URL by
    /// default) and return the target's bytes. The default, and what native
    /// views want: the image is all they need.
    case follow
    /// Stop at the redirect and throw an ``ImagePipelineError`` whose
    /// ``ImagePipelineError/redirect`` describes it. For the URL protocol
    /// bridge, which reports redirects to its client so that the client
    /// (a WebView) knows where the image now lives, as the original app did.
    /// A redirect is not a failed variant: nothing is remembered in the
    /// negative cache and the original is not fetched instead.
    case report
}

/// A redirect the upstream answered with, reported to a request whose
/// ``ImageRequest/redirects`` is ``RedirectHandling/report``.
public struct ImageRedirect: Sendable, Equatable {
    /// The redirect's status (`301`, `302`, `303`, `307`, `308`).
    public var statusCode: Int
    /// Where it points: its `Location`, resolved against ``redirectedURL``.
    public var location: URL
    /// The URL that answered with the redirect: the WebP variant, or the
    /// original after a fallback or when no rule rewrites it.
    public var redirectedURL: URL
    /// Whether ``redirectedURL`` is the WebP variant.
    public var isVariant: Bool

    public init(statusCode: Int, location: URL, redirectedURL: URL, isVariant: Bool) {
        self.statusCode = statusCode
        self.location = location
        self.redirectedURL = redirectedURL
        self.isVariant = isVariant
    }

    /// The redirect `response` describes, or `nil` when it is not one.
    init?(_ response: DataResponse, requested url: URL, isVariant: Bool) {
        guard let location = response.redirectLocation else { return nil }
        self.init(statusCode: response.statusCode, location: location, redirectedURL: url, isVariant: isVariant)
    }
}
