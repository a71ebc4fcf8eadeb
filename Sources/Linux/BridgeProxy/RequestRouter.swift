import Foundation
import HTTPServer
import WebPBridge

/// Maps a request onto the upstream URL to fetch, or refuses it: the
/// bridge's address book, a pure function of the request. The same rules
/// decide every redirect hop the bridge follows (``redirectPolicy``), so a
/// redirect can never take the bridge where a request could not.
///
/// Reverse mode accepts origin-form targets (`/a.jpg?x`) and appends them to
/// the upstream's base (``ReverseUpstream``: same scheme, host and port,
/// under the base path, no dot segments). Forward mode accepts absolute-form
/// targets (`http://host/a.jpg`) whose host and port are allowed
/// (``ForwardAllowList``).
struct RequestRouter: Sendable {
    /// Where a request goes.
    enum Route: Equatable {
        /// Fetch this URL.
        case upstream(URL)
        /// Answer with this status and one-line reason.
        case refused(HTTPStatus, String)
    }

    private enum Mapping: Sendable {
        case reverse(ReverseUpstream)
        case forward(ForwardAllowList)
    }

    private let mapping: Mapping

    init(mode: BridgeProxy.Configuration.Mode, rewriter: Rewriter?) {
        switch mode {
        case .reverse(let upstream):
            mapping = .reverse(ReverseUpstream(upstream))
        case .forward(let allowed):
            mapping = .forward(
                ForwardAllowList(entries: allowed, ruleHosts: rewriter?.configuration.rules.flatMap(\.hosts) ?? []))
        }
    }

    /// The upstream URL for `request`, or why it is refused.
    func route(_ request: HTTPRequest) -> Route {
        let target = request.target
        let isAbsolute = Self.hasHTTPScheme(target)
        switch mapping {
        case .reverse(let upstream):
            guard target.hasPrefix("/") else {
                if isAbsolute {
                    return .refused(
                        .badRequest,
                        "this bridge is a reverse proxy; send origin-form requests (GET /path), "
                            + "or start it with --forward to use it as a browser's proxy")
                }
                return .refused(.badRequest, "request target is not a path")
            }
            switch upstream.url(for: target) {
            case .success(let url): return .upstream(url)
            case .failure(let refused): return .refused(.badRequest, refused.reason)
            }
        case .forward(let allowList):
            guard isAbsolute else {
                return .refused(
                    .badRequest,
                    "this bridge is a forward proxy: send absolute-form requests (GET http://host/path) by "
                        + "configuring it as the HTTP proxy, or start it with --upstream URL")
            }
            guard let url = URL(string: target), let host = url.host, !host.isEmpty else {
                return .refused(.badRequest, "request target is not a valid absolute URL")
            }
            if let refusal = allowList.refusal(for: url) { return .refused(.forbidden, refusal) }
            return .upstream(url)
        }
    }

    /// Why the bridge may not fetch `url` (a redirect hop's target), or
    /// `nil` when it may: the one decision for first requests and hops.
    func refusal(for url: URL) -> String? {
        switch mapping {
        case .reverse(let upstream): upstream.refusal(for: url)
        case .forward(let allowList): allowList.refusal(for: url)
        }
    }

    /// The hops the pipeline may follow for this bridge: those ``refusal(for:)``
    /// lets through, up to five. Its name says which rules, so a bridge can
    /// tell that a pipeline was built with its own policy.
    var redirectPolicy: RedirectPolicy {
        let name: String
        switch mapping {
        case .reverse(let upstream): name = "the bridge's upstream \(upstream.description)"
        case .forward(let allowList): name = "the bridge's allowed hosts (\(allowList.summary))"
        }
        let router = self
        return RedirectPolicy(name: name) { router.refusal(for: $0) == nil }
    }

    /// Whether `target` starts with `http://` or `https://`, ignoring case.
    static func hasHTTPScheme(_ target: String) -> Bool {
        let head = target.prefix(8).lowercased()
        return head.hasPrefix("http://") || head.hasPrefix("https://")
    }

    /// The reverse-mode base (`http://upstream:8081/base`), or `nil` in forward mode.
    var reversePrefix: String? {
        if case .reverse(let upstream) = mapping { return upstream.prefix }
        return nil
    }
}
