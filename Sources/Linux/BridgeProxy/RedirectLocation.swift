import Foundation

/// Keeps reverse-mode redirects on the bridge: a `Location` that points at
/// the upstream (same scheme, host and port, under its base path) is
/// rewritten to the same path on the bridge's own origin, taken from the
/// request's `Host` header. Locations elsewhere are left alone.
struct RedirectLocation: Sendable {
    /// `http://upstream:8081/base`, without a trailing slash.
    let upstreamPrefix: String

    /// The `Location` to send the client.
    /// - Parameters:
    ///   - location: The upstream's `Location` value.
    ///   - bridgeHost: The request's `Host` (`127.0.0.1:8080`); `nil` gives a
    ///     path-only location, which RFC 9110 allows.
    func rewrite(_ location: String, bridgeHost: String?) -> String {
        let base = Self.basePath(of: upstreamPrefix)
        let bridgeOrigin = bridgeHost.flatMap { Self.isPlausibleHost($0) ? "http://\($0)" : nil } ?? ""
        if location.hasPrefix("/"), !location.hasPrefix("//") {
            // Path-absolute: resolved against the bridge, where the base path is implicit.
            guard !base.isEmpty else { return location }
            guard let rest = Self.strip(base, from: location) else { return location }
            return rest
        }
        guard RequestRouter.hasHTTPScheme(location) || location.hasPrefix("//") else { return location }
        guard let target = URL(string: location.hasPrefix("//") ? "http:" + location : location),
            let upstream = URL(string: upstreamPrefix),
            Self.sameOrigin(target, upstream, schemeMatters: !location.hasPrefix("//"))
        else { return location }
        // Path and everything after it, as written.
        let afterAuthority = Self.pathAndQuery(of: location)
        guard let rest = base.isEmpty ? afterAuthority : Self.strip(base, from: afterAuthority) else {
            return location
        }
        return bridgeOrigin + (rest.isEmpty ? "/" : rest)
    }

    private static func sameOrigin(_ lhs: URL, _ rhs: URL, schemeMatters: Bool) -> Bool {
        guard lhs.host?.lowercased() == rhs.host?.lowercased() else { return false }
        if schemeMatters, lhs.scheme?.lowercased() != rhs.scheme?.lowercased() { return false }
        return effectivePort(lhs) == effectivePort(rhs)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    }

    /// `/base` of `http://host:1/base`, or `""`.
    private static func basePath(of prefix: String) -> String {
        pathAndQuery(of: prefix)
    }

    /// The text from the first `/` after `scheme://authority` (or `""`).
    private static func pathAndQuery(of absolute: String) -> String {
        guard let schemeEnd = absolute.range(of: "//") else { return absolute }
        let authorityAndRest = absolute[schemeEnd.upperBound...]
        guard let slash = authorityAndRest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) else {
            return ""
        }
        return String(authorityAndRest[slash...])
    }

    /// `path` without the `base` prefix, when it lies under it.
    private static func strip(_ base: String, from path: String) -> String? {
        guard path.hasPrefix(base) else { return nil }
        let rest = String(path.dropFirst(base.count))
        if rest.isEmpty { return "/" }
        guard rest.hasPrefix("/") || rest.hasPrefix("?") else { return nil }
        return rest.hasPrefix("?") ? "/" + rest : rest
    }

    /// A `Host` value without characters that could break out of a URL.
    private static func isPlausibleHost(_ host: String) -> Bool {
        !host.isEmpty && !host.contains(where: { "/?#@ \t\\".contains($0) })
    }
}
