import Foundation
import HTTPServer
import URLRewriting

/// Maps a request onto the upstream URL to fetch, or refuses it: the
/// bridge's address book, a pure function of the request.
///
/// Reverse mode accepts origin-form targets (`/a.jpg?x`) and appends them to
/// the upstream's base. Forward mode accepts absolute-form targets
/// (`http://host/a.jpg`) whose host is allowed: exactly one of the allowed
/// hosts or a rule's exact hosts, or a subdomain of a rule's `*.domain`
/// wildcard at a label boundary — never a substring, so
/// `img.host.com.evil.example` is refused.
struct RequestRouter: Sendable {
    /// Where a request goes.
    enum Route: Equatable {
        /// Fetch this URL.
        case upstream(URL)
        /// Answer with this status and one-line reason.
        case refused(HTTPStatus, String)
    }

    private enum Mapping: Sendable {
        /// `scheme://authority` + base path without a trailing `/`.
        case reverse(prefix: String, description: String)
        case forward(exactHosts: Set<String>, wildcardSuffixes: [String])
    }

    private let mapping: Mapping

    init(mode: BridgeProxy.Configuration.Mode, rewriter: Rewriter?) {
        switch mode {
        case .reverse(let upstream):
            var text = upstream.absoluteString
            if let fragment = text.firstIndex(of: "#") { text = String(text[..<fragment]) }
            if let query = text.firstIndex(of: "?") { text = String(text[..<query]) }
            while text.hasSuffix("/") { text.removeLast() }
            mapping = .reverse(prefix: text, description: upstream.absoluteString)
        case .forward(let allowed):
            var exact = Set(allowed.map { $0.lowercased() })
            var suffixes: [String] = []
            for host in rewriter?.configuration.rules.flatMap(\.hosts) ?? [] {
                let lowered = host.lowercased()
                if lowered.hasPrefix("*.") {
                    suffixes.append(String(lowered.dropFirst()))  // ".example.com"
                } else {
                    exact.insert(lowered)
                }
            }
            mapping = .forward(exactHosts: exact, wildcardSuffixes: suffixes)
        }
    }

    /// The upstream URL for `request`, or why it is refused.
    func route(_ request: HTTPRequest) -> Route {
        let target = request.target
        let isAbsolute = Self.hasHTTPScheme(target)
        switch mapping {
        case .reverse(let prefix, let upstream):
            guard target.hasPrefix("/") else {
                if isAbsolute {
                    return .refused(
                        .badRequest,
                        "this bridge is a reverse proxy for \(upstream); send origin-form requests (GET /path), "
                            + "or start it with --forward to use it as a browser's proxy")
                }
                return .refused(.badRequest, "request target '\(target)' is not a path")
            }
            guard let url = URL(string: prefix + target), url.host != nil else {
                return .refused(.badRequest, "request target '\(target)' is not a valid URL path")
            }
            return .upstream(url)
        case .forward(let exactHosts, let wildcardSuffixes):
            guard isAbsolute else {
                return .refused(
                    .badRequest,
                    "this bridge is a forward proxy: send absolute-form requests (GET http://host/path) by "
                        + "configuring it as the HTTP proxy, or start it with --upstream URL")
            }
            guard let url = URL(string: target), let host = url.host?.lowercased(), !host.isEmpty else {
                return .refused(.badRequest, "request target '\(target)' is not a valid absolute URL")
            }
            let allowed =
                exactHosts.contains(host)
                || wildcardSuffixes.contains { host.hasSuffix($0) && host.count > $0.count }
            guard allowed else {
                return .refused(
                    .forbidden,
                    "host '\(host)' is not one this bridge serves (no rule or --allow-host names it; "
                        + "the bridge is not an open proxy)")
            }
            return .upstream(url)
        }
    }

    /// Whether `target` starts with `http://` or `https://`, ignoring case.
    static func hasHTTPScheme(_ target: String) -> Bool {
        let head = target.prefix(8).lowercased()
        return head.hasPrefix("http://") || head.hasPrefix("https://")
    }

    /// The reverse-mode base (`http://upstream:8081/base`), or `nil` in forward mode.
    var reversePrefix: String? {
        if case .reverse(let prefix, _) = mapping { return prefix }
        return nil
    }
}
