public import Foundation

/// Rewrites the image URLs of an HTML document to their WebP variants, with
/// the same ``Rewriter`` — so the same rules and cache keys — as the
/// pipeline and both bridges, and leaves every other byte as it was.
///
/// Rewritten: `<img src srcset>`, `<picture><source srcset>`,
/// `<link rel=preload as=image href imagesrcset>`, and `url(...)` in `style`
/// attributes and `<style>` elements. Left alone: scripts, comments, CDATA,
/// `data:` URLs, hosts no rule names, `<meta property=og:image>` (fetched by
/// other sites' crawlers, which may not decode WebP), and malformed markup.
/// Attribute values are read with their character references decoded
/// (`&amp;`), and a replaced URL is written back encoded for its quoting.
/// Relative URLs resolve against ``Configuration/baseURL`` and then the
/// document's first `<base href>`; a rewritten URL is written absolute (or
/// in ``Configuration/scheme``), an untouched one as it was.
///
/// It streams: ``makeStream()`` takes chunks of any size and returns output
/// as soon as it is final, holding back at most one tag
/// (``Configuration/maxTagBytes``) or one CSS `url(...)`, and the first
/// 1,024 bytes while it sniffs the page's encoding. Bytes are read as an
/// ASCII-compatible encoding (UTF-8, windows-1252, GBK…); a page in any
/// other (UTF-16, ISO-2022-JP) passes through untouched. A value type,
/// `Sendable`; each stream is one document's state.
public struct HTMLRewriter: Sendable {
    /// What the rewriter was created with.
    public let configuration: Configuration

    /// Creates a rewriter.
    /// - Parameter configuration: The rules, base URL, scheme and bounds.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Creates a rewriter with `rewriter`'s rules, resolving relative URLs against `baseURL`.
    public init(rewriter: Rewriter, baseURL: URL? = nil) {
        self.init(configuration: Configuration(rewriter: rewriter, baseURL: baseURL))
    }

    /// A stream for one document.
    public func makeStream() -> HTMLRewritingStream {
        HTMLRewritingStream(configuration: configuration)
    }

    /// Rewrites a whole document held in memory.
    public func rewrite(_ document: [UInt8]) -> [UInt8] {
        var stream = makeStream()
        var output = stream.rewrite(document)
        output += stream.finish()
        return output
    }

    /// Rewrites a whole document given as a string (before `loadHTMLString(_:baseURL:)`, say).
    /// The string is UTF-8 whatever its `<meta charset>` says (it was decoded already).
    public func rewrite(_ document: String) -> String {
        var configuration = configuration
        configuration.charset = "utf-8"
        return String(decoding: HTMLRewriter(configuration: configuration).rewrite(Array(document.utf8)), as: UTF8.self)
    }
}

extension HTMLRewriter {
    /// The rewriter's rules and bounds, with documented defaults.
    public struct Configuration: Sendable {
        /// The rules: the same ``Rewriter`` the pipeline uses, so a page's
        /// variants are the URLs (and cache keys) the pipeline fetches.
        public var rewriter: Rewriter
        /// What relative URLs resolve against; `nil` leaves relative URLs
        /// alone unless the document has a `<base href>` with an absolute URL.
        public var baseURL: URL?
        /// When set, each URL the rules rewrite is written as its original
        /// in this custom scheme (`webp-bridge-https://img…/a.jpg`) for a
        /// web view's scheme handler (`WebViewSchemeBridge`), which fetches
        /// the variant through the app's pipeline — one cache with the
        /// native views — and falls back to the original when it fails.
        public var scheme: WebViewScheme?
        /// When set, a variant whose URL starts with this prefix followed by
        /// `/` is written as the path after it: a reverse proxy in front of
        /// `http://upstream:8081/base` passes its upstream URL here, so the
        /// client fetches `/a.jpg?…` through the proxy. Default `nil`.
        public var localPrefix: String?
        /// The longest start tag held back to be rewritten, in bytes
        /// (at least 256). A longer one passes through untouched as it
        /// arrives: the bound on what a stream holds. Default 64 KiB.
        public var maxTagBytes: Int
        /// The transport layer's charset label (the `charset` of the page's
        /// `Content-Type`; see ``HTMLEncodingSniffer/charset(ofContentType:)``):
        /// after a byte order mark, it decides the page's encoding before
        /// its `<meta charset>`. Default `nil`.
        public var charset: String?

        /// Creates a configuration; every parameter after `rewriter` has the documented default.
        public init(
            rewriter: Rewriter, baseURL: URL? = nil, scheme: WebViewScheme? = nil, localPrefix: String? = nil,
            maxTagBytes: Int = 64 << 10, charset: String? = nil
        ) {
            self.rewriter = rewriter
            self.baseURL = baseURL
            self.scheme = scheme
            self.localPrefix = localPrefix
            self.maxTagBytes = maxTagBytes
            self.charset = charset
        }
    }
}
