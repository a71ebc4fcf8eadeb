/// The pieces of an absolute URL string exactly as written: percent-encoding,
/// case and order untouched, so that an unchanged URL stays byte-identical and
/// a rewritten one differs only where a dialect edits it.
///
/// Parsing is a single pass over the UTF-8 bytes of a string that Foundation
/// has already validated, so it only has to find the delimiters of RFC 3986's
/// generic syntax (`scheme://userinfo@host:port/path?query#fragment`).
struct URLParts: Sendable {
    /// The whole string.
    let string: String
    /// `http`, as written.
    let scheme: Substring
    /// The user info without its `@`, when present.
    let userInfo: Substring?
    /// The host as written (IPv6 literals keep their brackets).
    let host: Substring
    /// The port digits without the `:`, when a `:` follows the host.
    let port: Substring?
    /// The path, from its leading `/` (may be empty).
    let path: Substring
    /// The query without the `?`, when a `?` is present (may be empty).
    let query: Substring?
    /// The fragment without the `#`, when a `#` is present (may be empty).
    let fragment: Substring?

    /// Splits `string`, or returns `nil` when it is not of the form
    /// `scheme://authority…` with a non-empty host.
    init?(_ string: String) {
        self.string = string
        let utf8 = string.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let scheme = string[string.startIndex..<colon]
        guard !scheme.isEmpty, scheme.utf8.allSatisfy(URLParts.isSchemeByte) else { return nil }
        var cursor = utf8.index(after: colon)
        guard utf8[cursor...].starts(with: "//".utf8) else { return nil }
        cursor = utf8.index(cursor, offsetBy: 2)
        let authorityStart = cursor
        while cursor < utf8.endIndex {
            let byte = utf8[cursor]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            cursor = utf8.index(after: cursor)
        }
        let authority = string[authorityStart..<cursor]
        var hostStart = authority.startIndex
        if let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) {
            userInfo = authority[authority.startIndex..<at]
            hostStart = authority.utf8.index(after: at)
        } else {
            userInfo = nil
        }
        let hostAndPort = authority[hostStart...]
        // A colon after the host (and after an IPv6 literal's closing bracket) starts the port.
        let portSearchStart = hostAndPort.utf8.lastIndex(of: UInt8(ascii: "]")) ?? hostAndPort.startIndex
        if let portColon = hostAndPort.utf8[portSearchStart...].firstIndex(of: UInt8(ascii: ":")) {
            host = hostAndPort[hostAndPort.startIndex..<portColon]
            port = hostAndPort[hostAndPort.utf8.index(after: portColon)...]
        } else {
            host = hostAndPort
            port = nil
        }
        guard !host.isEmpty else { return nil }
        let pathStart = cursor
        while cursor < utf8.endIndex {
            let byte = utf8[cursor]
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            cursor = utf8.index(after: cursor)
        }
        path = string[pathStart..<cursor]
        if cursor < utf8.endIndex, utf8[cursor] == UInt8(ascii: "?") {
            let queryStart = utf8.index(after: cursor)
            let hash = utf8[queryStart...].firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
            query = string[queryStart..<hash]
            cursor = hash
        } else {
            query = nil
        }
        if cursor < utf8.endIndex {
            fragment = string[utf8.index(after: cursor)...]
        } else {
            fragment = nil
        }
        self.scheme = scheme
    }

    /// Everything before the path: `scheme://userinfo@host:port`.
    var origin: Substring { string[string.startIndex..<path.startIndex] }

    /// The host and its port as written (`img.example.com:8080`), without user info.
    var hostAndPort: Substring { string[host.startIndex..<path.startIndex] }

    /// The lower-cased host, without a trailing dot, for comparison with rules.
    var normalizedHost: String {
        var result = String(host)
        if result.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) {
            result = result.lowercased()
        }
        if result.utf8.last == UInt8(ascii: "."), result.utf8.count > 1 {
            result.removeLast()
        }
        return result
    }

    /// The scheme, lower-cased.
    var normalizedScheme: String {
        scheme.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
            ? scheme.lowercased() : String(scheme)
    }

    /// Builds a URL string from these parts with a new path and query; the
    /// origin and the fragment are kept as written.
    func replacing(path newPath: some StringProtocol, query newQuery: (some StringProtocol)?) -> String {
        var result = String(origin)
        result.reserveCapacity(string.utf8.count + 64)
        result += newPath
        if let newQuery {
            result += "?"
            result += newQuery
        }
        if let fragment {
            result += "#"
            result += fragment
        }
        return result
    }

    /// Builds a URL string with a new query, keeping everything else as written.
    func replacing(query newQuery: some StringProtocol) -> String {
        replacing(path: path, query: Optional(newQuery))
    }

    /// Builds a URL string with a new path, keeping everything else as written.
    func replacing(path newPath: some StringProtocol) -> String {
        replacing(path: newPath, query: query)
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }
}
