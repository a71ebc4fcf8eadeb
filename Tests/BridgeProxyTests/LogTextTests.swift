import TestTraits
import Testing

@testable import BridgeProxy

/// The bridge's log lines: credentials in URLs replaced, control bytes
/// escaped, one event per line.
@Suite(.timeLimit(.suiteBound))
struct LogTextTests {
    @Test(arguments: [
        (
            "GET http://user:pw@127.0.0.1:9/a.jpg: Couldn't connect",
            "GET http://***@127.0.0.1:9/a.jpg: Couldn't connect"
        ),
        ("https://token@cdn.test?x=1 and http://a:b@c.test", "https://***@cdn.test?x=1 and http://***@c.test"),
        ("http://host.test/path@not-userinfo", "http://host.test/path@not-userinfo"),
        ("no url here", "no url here"),
        ("http://u:p@h.test/a\r\nX-Injected: 1\u{1b}[31m", "http://***@h.test/a\\x0d\\x0aX-Injected: 1\\x1b[31m"),
    ])
    func linesAreRedactedAndEscaped(raw: String, logged: String) {
        #expect(LogText.line(raw) == logged)
    }
}
