import Foundation

/// Reverse mode's one upstream: the scheme, host, port and base path every
/// request and every redirect hop must stay within.
///
/// A request target is appended to the base (`http://host/base` + `/a.jpg`).
/// Targets with dot segments (`..`, `.`, also as `%2e` or with `;`
/// parameters), backslashes or encoded slashes next to dots are refused,
/// since a client or a library resolving them would leave the base path
/// (`/base/../echo` is `/echo`).
struct ReverseUpstream: Sendable {
    /// `scheme://authority` + base path without a trailing `/`, as written
    /// (credentials included: they are sent upstream, never shown).
    let prefix: String
    /// `http://host:port/base` with any credentials replaced, for messages.
    let description: String
    private let scheme: String
    private let host: String
    private let port: Int
    /// `/base`, or `""`.
    private let basePath: String

    init(_ upstream: URL) {
        var text = upstream.absoluteString
        if let fragment = text.firstIndex(of: "#") { text = String(text[..<fragment]) }
        if let query = text.firstIndex(of: "?") { text = String(text[..<query]) }
        while text.hasSuffix("/") { text.removeLast() }
        prefix = text
        description = LogText.redactingCredentials(text)
        scheme = upstream.scheme?.lowercased() ?? "http"
        host = upstream.host?.lowercased() ?? ""
        port = upstream.port ?? (scheme == "https" ? 443 : 80)
        var path = URL(string: text)?.path ?? ""
        while path.hasSuffix("/") { path.removeLast() }
        basePath = path
    }

    /// The URL for an origin-form `target`, or why it is refused.
    func url(for target: String) -> Result<URL, RefusedTarget> {
        guard !Self.leavesItsPath(target) else {
            return .failure(
                RefusedTarget(
                    "request target has a dot segment ('.' or '..', also percent-encoded) or a backslash; "
                        + "the bridge does not resolve them"))
        }
        guard let url = URL(string: prefix + target), refusal(for: url) == nil else {
            return .failure(RefusedTarget("request target is not a valid URL path"))
        }
        return .success(url)
    }

    /// Why `url` may not be fetched, or `nil` when it is the upstream's:
    /// same scheme, host and port, under the base path, no dot segments.
    func refusal(for url: URL) -> String? {
        guard url.scheme?.lowercased() == scheme, url.host?.lowercased() == host,
            (url.port ?? (scheme == "https" ? 443 : 80)) == port
        else { return "it is not on the upstream \(description)" }
        let path = url.path
        let underBase = basePath.isEmpty || path == basePath || path.hasPrefix(basePath + "/")
        guard underBase, !Self.leavesItsPath(Self.pathPart(of: url.absoluteString)) else {
            return "it is outside the upstream's path \(description)"
        }
        return nil
    }

    /// The text from the first `/` after `scheme://authority`, up to `?` or `#`.
    private static func pathPart(of absolute: String) -> String {
        guard let schemeEnd = absolute.range(of: "://") else { return absolute }
        let rest = absolute[schemeEnd.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return "" }
        let path = rest[slash...]
        return String(path.prefix { $0 != "?" && $0 != "#" })
    }

    /// Whether the path part of `target` has a `.` or `..` segment, raw or
    /// percent-encoded (`%2e`, with `%2f` and `%5c` as separators, and with
    /// or without `;` parameters), or a backslash: anything a resolver could
    /// take out of the base path.
    static func leavesItsPath(_ target: String) -> Bool {
        let path = target.prefix { $0 != "?" && $0 != "#" }
        if path.contains("\\") { return true }
        var decoded = path.lowercased()
        for (escape, character) in [("%2e", "."), ("%2f", "/"), ("%5c", "/"), ("%3b", ";")] {
            decoded = decoded.replacingOccurrences(of: escape, with: character)
        }
        // `..;x` is `..` to servers that take `;` as a path parameter.
        return decoded.split(separator: "/", omittingEmptySubsequences: false).contains { segment in
            let name = segment.prefix { $0 != ";" }
            return name == "." || name == ".."
        }
    }
}

/// Why a request target is refused with 400, in words a client may see.
struct RefusedTarget: Error, Sendable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
