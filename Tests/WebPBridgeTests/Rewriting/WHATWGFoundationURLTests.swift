import Foundation
import TestTraits
import Testing

@testable import WebPBridge

/// Issue 28, item 8: text from outside (a page, a `Location` field, an app's
/// URL text) becomes a Foundation `URL` through the WHATWG parser, never
/// through `URL(string:)`'s repair, which only apps linked on iOS 17 / macOS
/// 14 get (before, it returns `nil` for a raw space or non-ASCII).
///
/// Foundation here repairs as iOS 17 does, so a result alone would not show
/// the independence: each test also checks that the text handed to
/// `URL(string:)` is already ASCII and RFC 3986 (by this file's own reading
/// of RFC 3986, not the library's), and that the strict parse
/// (`encodingInvalidCharacters: false`, the one that repairs nothing) holds
/// it byte for byte.
@Suite(.timeLimit(.suiteBound)) struct WHATWGFoundationURLTests {
    /// An input, what the WHATWG standard's serialiser makes of it, and the
    /// URL `URL(whatwg:)` gives (`nil`: refused).
    struct Case: Sendable, CustomTestStringConvertible {
        let input: String
        var base: String?
        /// The standard's href (`nil` when its parser fails).
        let href: String?
        /// `URL(whatwg:)`'s `absoluteString`: the href, with the bytes RFC
        /// 3986 forbids but the standard leaves as written percent-encoded.
        let foundation: String?

        var testDescription: String { input.debugDescription + (base.map { " against \($0)" } ?? "") }

        /// A case where the URL is exactly the standard's href.
        static func same(_ input: String, _ href: String?, base: String? = nil) -> Case {
            Case(input: input, base: base, href: href, foundation: href)
        }
    }

    /// Inputs that `URL(string:)` refuses without its repair (iOS 16), each
    /// checked below to be refused by the strict parse.
    static let refusedWithoutRepair: [Case] = [
        .same("http://img.example.com/a b.jpg", "http://img.example.com/a%20b.jpg"),
        .same(
            "http://img.example.com/图片/照片.jpg",
            "http://img.example.com/%E5%9B%BE%E7%89%87/%E7%85%A7%E7%89%87.jpg"),
        .same("http://img.example.com/{a}.jpg", "http://img.example.com/%7Ba%7D.jpg"),
        .same("http://img.example.com/a^b.jpg", "http://img.example.com/a%5Eb.jpg"),
        .same("http://img.example.com/a\"b\".jpg", "http://img.example.com/a%22b%22.jpg"),
        .same("http://img.example.com/a.jpg?q=a b&c=<d>", "http://img.example.com/a.jpg?q=a%20b&c=%3Cd%3E"),
        Case(
            input: "http://img.example.com/a|b.jpg", href: "http://img.example.com/a|b.jpg",
            foundation: "http://img.example.com/a%7Cb.jpg"),
        Case(
            input: "http://img.example.com/a.jpg?x=[1]|{2}^`", href: "http://img.example.com/a.jpg?x=[1]|{2}^`",
            foundation: "http://img.example.com/a.jpg?x=%5B1%5D%7C%7B2%7D%5E%60"),
        Case(
            input: "http://img.example.com/a.jpg#x#y|", href: "http://img.example.com/a.jpg#x#y|",
            foundation: "http://img.example.com/a.jpg#x%23y%7C"),
        Case(
            input: "http://img.example.com/100%zz.jpg", href: "http://img.example.com/100%zz.jpg",
            foundation: "http://img.example.com/100%25zz.jpg"),
        .same(" http://img.example.com/a\tb\n.jpg ", "http://img.example.com/ab.jpg"),
        .same("http://img.example.com\\photos\\a.jpg", "http://img.example.com/photos/a.jpg"),
        .same(
            "照片 1.jpg", "http://img.example.com/a/%E7%85%A7%E7%89%87%201.jpg",
            base: "http://img.example.com/a/b"),
        .same("../c d.jpg", "http://img.example.com/a/c%20d.jpg", base: "http://img.example.com/a/b/page.html"),
        .same("//cdn.example.com/x y.png", "https://cdn.example.com/x%20y.png", base: "https://img.example.com/"),
        // Refused by the standard: a space in a host, a bad port.
        .same("http://img example.com/a.jpg", nil),
        .same("http://img.example.com:8o/a.jpg", nil),
        // Parsed by the standard, refused here: a host RFC 3986 forbids,
        // a host that needs IDNA (not done), relative text without a base.
        Case(
            input: "http://a{b}.example.com/a.jpg", href: "http://a{b}.example.com/a.jpg", foundation: nil),
        .same("http://bücher.example/a.jpg", nil),
        .same("a b.jpg", nil),
    ]

    @Test(arguments: refusedWithoutRepair)
    func textBecomesTheSameURLOnEveryOSVersion(_ example: Case) throws {
        let base = try example.base.map { try #require(URL(whatwg: $0)) }
        #expect(WHATWGURL.parse(example.input, relativeTo: base)?.href == example.href)
        let url = URL(whatwg: example.input, relativeTo: base)
        #expect(url?.absoluteString == example.foundation)
        if let foundation = example.foundation {
            #expect(Self.isRFC3986(foundation), "\(foundation)")
            #expect(Self.strictlyParsed(foundation) == foundation)
            #expect(WHATWGURL.foundationSpelling(ofHref: try #require(example.href)) == foundation)
        }
        if example.base == nil, example.input.utf8.contains(where: { $0 > 0x7E || !Self.isRFC3986Byte($0) }) {
            // The input as written is one the parse without repair refuses.
            #expect(Self.strictlyParsed(example.input) == nil)
        }
    }

    /// Every `http`/`https` entry of the WHATWG URL test data through
    /// `URL(whatwg:relativeTo:)`: the expected href, with only the bytes RFC
    /// 3986 forbids encoded (by this file's encoder), held byte for byte by
    /// the strict parse; a failure the data expects, or an IDNA host, is `nil`.
    @Test func theStandardsTestDataThroughFoundation() throws {
        let entries = URLTestData.shared.entries.filter(\.isHTTP)
        try #require(entries.count > 400)
        var exact = 0
        var respelled = 0
        var expectedFailures = 0
        var refusedHere = 0
        for entry in entries {
            var base: URL?
            if let baseText = entry.base {
                guard let parsed = URL(whatwg: baseText) else {
                    #expect(entry.href == nil, "\(entry): the base did not parse")
                    expectedFailures += 1
                    continue
                }
                base = parsed
            }
            let url = URL(whatwg: entry.input, relativeTo: base)
            guard let href = entry.href, let parsed = try? WHATWGURL(href) else {
                #expect(url == nil, "\(entry): \(url?.absoluteString ?? "")")
                expectedFailures += 1
                continue
            }
            guard let url else {
                // Only a host that needs IDNA, or one RFC 3986 forbids.
                let needsIDNA = WHATWGURLTestDataTests.outcome(entry).0 == .idnaRefused
                #expect(needsIDNA || !Self.isRFC3986Host(parsed.host?.serialized ?? ""), "\(entry): refused")
                refusedHere += 1
                continue
            }
            let expected = Self.rfc3986Spelling(of: href)
            #expect(url.absoluteString == expected, "\(entry)")
            #expect(Self.isRFC3986(url.absoluteString), "\(entry): \(url.absoluteString)")
            #expect(Self.strictlyParsed(url.absoluteString) == url.absoluteString, "\(entry)")
            if expected == href { exact += 1 } else { respelled += 1 }
        }
        #expect(exact > 200)
        print(
            "WHATWG URL data through URL(whatwg:): \(entries.count) http(s) entries, \(exact) exactly the href,"
                + " \(respelled) the href with RFC 3986's forbidden bytes encoded, \(expectedFailures) failures"
                + " the data expects, \(refusedHere) refused here (IDNA, or a host RFC 3986 forbids)")
    }

    /// Finding 8's redirect: a `Location` with a raw space or non-ASCII is
    /// followed as a browser follows it, and read the same on every version.
    static let locations: [(String, String?)] = [
        ("/new path/图.jpg", "http://img.example.com/new%20path/%E5%9B%BE.jpg"),
        ("  https://cdn.example.com/a|b.jpg\t", "https://cdn.example.com/a%7Cb.jpg"),
        ("..\\up\\a.jpg", "http://img.example.com/up/a.jpg"),
        ("//cdn.example.com/x y.jpg?w=1 2", "http://cdn.example.com/x%20y.jpg?w=1%202"),
        ("b c.jpg#top", "http://img.example.com/dir/b%20c.jpg#top"),
        ("ftp://cdn.example.com/a.jpg", nil),
        ("http://bad host/a.jpg", nil),
        ("", nil),
        (" \t ", nil),
    ]

    @Test(arguments: locations)
    func aLocationWithSpacesIsFollowed(_ field: String, _ expected: String?) throws {
        var headers = HTTPFieldList()
        headers.add(name: "Location", value: field)
        let response = DataResponse(
            url: try #require(URL(whatwg: "http://img.example.com/dir/a.jpg")), statusCode: 302, headers: headers,
            body: Data())
        #expect(response.redirectLocation?.absoluteString == expected)
        if let expected {
            #expect(Self.isRFC3986(expected))
            #expect(Self.strictlyParsed(expected) == expected)
        }
    }

    /// A flood: the longest text the parser takes, every byte one to encode,
    /// comes out three times as long and held; a byte more is refused
    /// before any work (``WHATWGURL/maxInputBytes``, 1 MiB).
    @Test func theLongestTextIsHeldAndALongerOneRefused() throws {
        let prefix = "http://img.example.com/a.jpg?"
        let fill = WHATWGURL.maxInputBytes - prefix.utf8.count
        let url = try #require(URL(whatwg: prefix + String(repeating: "|", count: fill)))
        #expect(url.absoluteString.utf8.count == prefix.utf8.count + 3 * fill)
        #expect(url.absoluteString.hasSuffix("%7C%7C"))
        #expect(URL(whatwg: prefix + String(repeating: "|", count: fill + 1)) == nil)
    }

    /// The portable code makes a `URL` from text in one place: the helper.
    @Test func onlyTheHelperCallsURLStringInit() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let portable = root.appendingPathComponent("Sources/Portable")
        let enumerator = try #require(FileManager.default.enumerator(atPath: portable.path))
        var callers: [String] = []
        var files = 0
        for case let path as String in enumerator where path.hasSuffix(".swift") {
            files += 1
            let text = try String(contentsOf: portable.appendingPathComponent(path), encoding: .utf8)
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            if code.contains(where: { $0.contains("URL(string:") }) { callers.append(path) }
        }
        #expect(files > 100)
        #expect(callers.sorted() == ["WebPBridge/Rewriting/WHATWG/URL+WHATWG.swift"])
    }

    // MARK: - RFC 3986, read here independently of the library

    /// `text` through `URL(string:)` without repair, as before iOS 17.
    static func strictlyParsed(_ text: String) -> String? {
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *) {
            return URL(string: text, encodingInvalidCharacters: false)?.absoluteString
        }
        return URL(string: text)?.absoluteString
    }

    /// RFC 3986's unreserved, sub-delims and gen-delims, and `%`.
    static func isRFC3986Byte(_ byte: UInt8) -> Bool {
        let allowed = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:/?#[]@%"
        return allowed.utf8.contains(byte)
    }

    /// Whether `text` is an RFC 3986 URI: ASCII, only its characters, every
    /// `%` an escape, `[` and `]` only in the authority, one `#` at most.
    static func isRFC3986(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.allSatisfy(isRFC3986Byte) else { return false }
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "%") {
            guard index + 2 < bytes.count, bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit else {
                return false
            }
        }
        guard bytes.filter({ $0 == UInt8(ascii: "#") }).count <= 1 else { return false }
        let afterAuthority = Self.pathStart(bytes)
        return !bytes[afterAuthority...].contains { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") }
    }

    static func isRFC3986Host(_ host: String) -> Bool {
        host.utf8.allSatisfy { isRFC3986Byte($0) && !"/?#@".utf8.contains($0) }
    }

    /// Where the path starts in `scheme:[//authority]…`.
    static func pathStart(_ bytes: [UInt8]) -> Int {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return 0 }
        guard bytes[(colon + 1)...].starts(with: "//".utf8) else { return colon + 1 }
        return bytes[(colon + 3)...].firstIndex { "/?#".utf8.contains($0) } ?? bytes.count
    }

    /// `href` with each byte RFC 3986 forbids after the authority encoded,
    /// a second `#` and a `%` that starts no escape among them.
    static func rfc3986Spelling(of href: String) -> String {
        let bytes = Array(href.utf8)
        let start = pathStart(bytes)
        var output = Array(bytes[..<start])
        var seenHash = false
        for index in start..<bytes.count {
            let byte = bytes[index]
            var allowed = isRFC3986Byte(byte) && byte != UInt8(ascii: "[") && byte != UInt8(ascii: "]")
            if byte == UInt8(ascii: "#") {
                allowed = !seenHash
                seenHash = true
            }
            if byte == UInt8(ascii: "%") {
                allowed = index + 2 < bytes.count && bytes[index + 1].isHexDigit && bytes[index + 2].isHexDigit
            }
            if allowed {
                output.append(byte)
            } else {
                output += Array(String(format: "%%%02X", byte).utf8)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
