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
    /// The scheme, lower-cased (`http`), for comparison with rules.
    let normalizedScheme: String
    /// Whether the host has an upper-case ASCII letter (found by the scan,
    /// so that already-normal URLs skip every lower-casing step).
    let hostHasUppercase: Bool

    /// Splits `string`, or returns `nil` when it is not of the form
    /// `scheme://authority…` with a non-empty host.
    init?(_ string: String) {
        var copy = string
        // One pass over contiguous bytes, recording offsets of the delimiters.
        let offsets: Offsets? = copy.withUTF8 { bytes in URLParts.scan(bytes) }
        guard let offsets else { return nil }
        self.string = copy
        let utf8 = copy.utf8
        let start = utf8.startIndex
        func index(_ offset: Int) -> String.Index { utf8.index(start, offsetBy: offset) }
        scheme = copy[start..<index(offsets.schemeEnd)]
        userInfo = offsets.userInfoEnd.map { copy[index(offsets.schemeEnd + 3)..<index($0)] }
        host = copy[index(offsets.hostStart)..<index(offsets.hostEnd)]
        port = offsets.hostEnd < offsets.pathStart ? copy[index(offsets.hostEnd + 1)..<index(offsets.pathStart)] : nil
        path = copy[index(offsets.pathStart)..<index(offsets.pathEnd)]
        query = offsets.queryEnd.map { copy[index(offsets.pathEnd + 1)..<index($0)] }
        let fragmentStart = offsets.queryEnd ?? offsets.pathEnd
        fragment = fragmentStart < offsets.count ? copy[index(fragmentStart + 1)...] : nil
        normalizedScheme = offsets.schemeHasUppercase ? scheme.lowercased() : String(scheme)
        hostHasUppercase = offsets.hostHasUppercase
    }

    /// Delimiter positions, as byte offsets.
    private struct Offsets {
        var schemeEnd = 0
        var userInfoEnd: Int?
        var hostStart = 0
        var hostEnd = 0
        var pathStart = 0
        var pathEnd = 0
        var queryEnd: Int?
        var count = 0
        var schemeHasUppercase = false
        var hostHasUppercase = false
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Offsets? {
        var offsets = Offsets()
        offsets.count = bytes.count
        var cursor = 0
        while cursor < bytes.count, isSchemeByte(bytes[cursor]) {
            if isUppercase(bytes[cursor]) { offsets.schemeHasUppercase = true }
            cursor += 1
        }
        guard cursor > 0, cursor + 2 < bytes.count, bytes[cursor] == UInt8(ascii: ":"),
            bytes[cursor + 1] == UInt8(ascii: "/"), bytes[cursor + 2] == UInt8(ascii: "/")
        else { return nil }
        offsets.schemeEnd = cursor
        cursor += 3
        let authorityStart = cursor
        var lastAt: Int?
        var lastColon: Int?
        var lastBracket: Int?
        var upperAfterAt = false
        while cursor < bytes.count {
            switch bytes[cursor] {
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                break
            case UInt8(ascii: "@"):
                lastAt = cursor
                lastColon = nil
                upperAfterAt = false
                cursor += 1
                continue
            case UInt8(ascii: ":"):
                lastColon = cursor
                cursor += 1
                continue
            case UInt8(ascii: "]"):
                lastBracket = cursor
                cursor += 1
                continue
            case let byte:
                if isUppercase(byte) { upperAfterAt = true }
                cursor += 1
                continue
            }
            break
        }
        offsets.hostHasUppercase = upperAfterAt
        offsets.userInfoEnd = lastAt
        offsets.hostStart = lastAt.map { $0 + 1 } ?? authorityStart
        // A colon after the host (and after an IPv6 literal's closing bracket) starts the port.
        if let colon = lastColon, colon > (lastBracket ?? -1), colon >= offsets.hostStart {
            offsets.hostEnd = colon
        } else {
            offsets.hostEnd = cursor
        }
        guard offsets.hostEnd > offsets.hostStart else { return nil }
        offsets.pathStart = cursor
        while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "?"), bytes[cursor] != UInt8(ascii: "#") {
            cursor += 1
        }
        offsets.pathEnd = cursor
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "?") {
            cursor += 1
            while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "#") { cursor += 1 }
            offsets.queryEnd = cursor
        }
        return offsets
    }

    /// Everything before the path: `scheme://userinfo@host:port`.
    var origin: Substring { string[string.startIndex..<path.startIndex] }

    /// The host and its port as written (`img.example.com:8080`), without user info.
    var hostAndPort: Substring { string[host.startIndex..<path.startIndex] }

    /// The lower-cased host, without a trailing dot, for comparison with rules.
    var normalizedHost: String {
        var result = hostHasUppercase ? host.lowercased() : String(host)
        if result.utf8.last == UInt8(ascii: "."), result.utf8.count > 1 {
            result.removeLast()
        }
        return result
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

    @inline(__always)
    private static func isUppercase(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
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
