public import Foundation

/// A custom URL scheme pair for a web view's scheme handler (`WKURLSchemeHandler`):
/// `https://h/p?q` ↔ `<name>-https://h/p?q` and `http://…` ↔ `<name>-http://…`.
///
/// A web view hands requests for a custom scheme to the app, which can then
/// answer them from the same pipeline and cache its native views use; a page
/// whose image URLs were rewritten to this scheme therefore shares that cache.
/// The mapping is textual: only the scheme changes, so host, port, IPv6
/// literals, path, query, fragment and percent-encoding stay as written. URLs
/// with user info are refused: credentials never leave the page through the
/// handler. Portable (Foundation only).
public struct WebViewScheme: Sendable, Hashable {
    /// The base name, `webp-bridge` by default; the schemes are ``schemes``.
    public let name: String

    /// The default pair, `webp-bridge-https` and `webp-bridge-http`.
    public static let standard = WebViewScheme(validatedName: "webp-bridge")

    /// Names a web view handles itself, or that would confuse a reader as a scheme base.
    private static let reservedNames: Set<String> = ["http", "https", "file", "data", "about", "blob", "javascript"]

    /// Creates a scheme pair named `name`.
    ///
    /// - Parameter name: RFC 3986 scheme characters (a lower-case letter, then
    ///   lower-case letters, digits, `+`, `-`, `.`), at most 48 of them, and
    ///   not `http`, `https`, `file`, `data`, `about`, `blob` or `javascript`.
    /// - Throws: ``WebViewSchemeError`` saying what is wrong with the name.
    public init(name: String = "webp-bridge") throws(WebViewSchemeError) {
        let bytes = Array(name.utf8)
        guard let first = bytes.first else { throw WebViewSchemeError("the scheme name is empty") }
        guard bytes.count <= 48 else {
            throw WebViewSchemeError("the scheme name '\(name)' is longer than 48 characters")
        }
        guard (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else {
            throw WebViewSchemeError("the scheme name '\(name)' must start with a lower-case letter (a-z)")
        }
        for byte in bytes where !Self.isSchemeByte(byte) {
            throw WebViewSchemeError(
                "the scheme name '\(name)' may hold only lower-case letters, digits, '+', '-' and '.' (RFC 3986)")
        }
        guard !Self.reservedNames.contains(name) else {
            throw WebViewSchemeError("the scheme name '\(name)' is a scheme the web view handles itself")
        }
        self.name = name
    }

    private init(validatedName: String) {
        name = validatedName
    }

    /// The two schemes a handler registers: `<name>-https` and `<name>-http`.
    public var schemes: [String] { [name + "-https", name + "-http"] }

    /// `url` in the custom scheme, or `nil` when it is not an `http` or
    /// `https` URL with a host (`//`) and without user info.
    public func customURL(for url: URL) -> URL? {
        guard let (scheme, rest) = Self.split(url.absoluteString), ["http", "https"].contains(scheme) else {
            return nil
        }
        return URL(exactly: name + "-" + scheme + rest)
    }

    /// The network URL behind a custom-scheme `url` (`https://…` for
    /// `<name>-https://…`), or `nil` when `url` is not in one of ``schemes``
    /// or has user info.
    public func networkURL(for url: URL) -> URL? {
        guard let (scheme, rest) = Self.split(url.absoluteString), scheme.hasPrefix(name + "-") else { return nil }
        let network = scheme.dropFirst(name.count + 1)
        guard network == "http" || network == "https" else { return nil }
        return URL(exactly: String(network) + rest)
    }

    /// The lower-cased scheme and everything from `://` on, when the
    /// authority has a host and no user info.
    private static func split(_ text: String) -> (scheme: String, rest: Substring)? {
        guard let separator = text.range(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound]
        guard !scheme.isEmpty, scheme.utf8.allSatisfy({ isSchemeByte($0) || (65...90).contains($0) }) else {
            return nil
        }
        let authority = text[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        return (scheme.lowercased(), text[separator.lowerBound...])
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"),
            UInt8(ascii: "-"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }
}

/// Why a ``WebViewScheme`` name was refused.
public struct WebViewSchemeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the name, in one sentence.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
