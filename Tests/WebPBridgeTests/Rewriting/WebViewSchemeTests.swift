import Foundation
import TestTraits
import Testing
import WebPBridge

/// `WebViewScheme`: the custom scheme pair a web view's scheme handler
/// answers, mapped to and from network URLs with only the scheme changed.
@Suite(.timeLimit(.suiteBound)) struct WebViewSchemeTests {
    /// Network URL, custom URL: each maps to the other.
    static let roundTrips: [(String, String)] = [
        ("https://img.example.com/a.jpg", "webp-bridge-https://img.example.com/a.jpg"),
        ("http://img.example.com/a.jpg", "webp-bridge-http://img.example.com/a.jpg"),
        (
            "https://img.example.com/a.jpg?imageView2/2/w/750/format/webp",
            "webp-bridge-https://img.example.com/a.jpg?imageView2/2/w/750/format/webp"
        ),
        ("https://img.example.com:8443/a.jpg", "webp-bridge-https://img.example.com:8443/a.jpg"),
        ("http://127.0.0.1:8081/photos/a.jpg", "webp-bridge-http://127.0.0.1:8081/photos/a.jpg"),
        ("http://[::1]:8080/a.jpg", "webp-bridge-http://[::1]:8080/a.jpg"),
        ("https://[2001:db8::1]/a.jpg", "webp-bridge-https://[2001:db8::1]/a.jpg"),
        (
            "https://img.example.com/%E5%9B%BE%20x.jpg?q=%2F#frag",
            "webp-bridge-https://img.example.com/%E5%9B%BE%20x.jpg?q=%2F#frag"
        ),
        ("https://img.example.com", "webp-bridge-https://img.example.com"),
        ("HTTPS://IMG.example.com/A.jpg", "webp-bridge-https://IMG.example.com/A.jpg"),
    ]

    @Test(arguments: roundTrips)
    func mapsBothWays(_ network: String, _ custom: String) throws {
        let scheme = WebViewScheme.standard
        let networkURL = try #require(URL(string: network))
        let customURL = try #require(scheme.customURL(for: networkURL))
        #expect(customURL.absoluteString == custom)
        let back = try #require(scheme.networkURL(for: customURL))
        // The scheme comes back lower-cased; everything after it as written.
        #expect(back.absoluteString == network.replacingOccurrences(of: "HTTPS:", with: "https:"))
    }

    static let refusedNetworkURLs = [
        "ftp://img.example.com/a.jpg", "file:///tmp/a.jpg", "data:image/png;base64,AAAA", "about:blank",
        "https://user:secret@img.example.com/a.jpg", "http://user@img.example.com/a.jpg",
        "webp-bridge-https://img.example.com/a.jpg", "mailto:a@example.com",
    ]

    @Test(arguments: refusedNetworkURLs)
    func refusesOtherSchemesAndUserInfo(_ text: String) throws {
        let url = try #require(URL(string: text))
        #expect(WebViewScheme.standard.customURL(for: url) == nil)
    }

    static let refusedCustomURLs = [
        "https://img.example.com/a.jpg", "webp-bridge-ftp://img.example.com/a.jpg",
        "other-https://img.example.com/a.jpg",
        "webp-bridge-https://user@img.example.com/a.jpg", "webp-bridge://img.example.com/a.jpg",
    ]

    @Test(arguments: refusedCustomURLs)
    func networkURLRefusesWhatItDidNotMake(_ text: String) throws {
        let url = try #require(URL(string: text))
        #expect(WebViewScheme.standard.networkURL(for: url) == nil)
    }

    @Test func aCustomNameMakesItsOwnPair() throws {
        let scheme = try WebViewScheme(name: "news.img+v2")
        #expect(scheme.schemes == ["news.img+v2-https", "news.img+v2-http"])
        let network = try #require(URL(string: "https://a.example/b.png"))
        let url = try #require(scheme.customURL(for: network))
        #expect(url.absoluteString == "news.img+v2-https://a.example/b.png")
        #expect(WebViewScheme.standard.schemes == ["webp-bridge-https", "webp-bridge-http"])
        #expect(try WebViewScheme() == .standard)
    }

    static let invalidNames: [(String, String)] = [
        ("", "empty"), ("Webp", "lower-case letter"), ("1webp", "lower-case letter"), ("webp bridge", "RFC 3986"),
        ("webp_bridge", "RFC 3986"), ("webp:x", "RFC 3986"), ("https", "handles itself"), ("http", "handles itself"),
        ("file", "handles itself"), ("data", "handles itself"), ("about", "handles itself"), ("blob", "handles itself"),
        ("javascript", "handles itself"), (String(repeating: "a", count: 49), "longer than 48"), ("wébp", "RFC 3986"),
    ]

    @Test(arguments: invalidNames)
    func invalidNamesAreRefusedWithAReason(_ name: String, _ reason: String) {
        #expect {
            _ = try WebViewScheme(name: name)
        } throws: { error in
            (error as? WebViewSchemeError)?.description.contains(reason) == true
        }
    }
}
