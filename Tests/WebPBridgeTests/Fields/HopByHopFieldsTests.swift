import TestTraits
import Testing

@testable import WebPBridge

@Suite(.timeLimit(.suiteBound))
struct HopByHopFieldsTests {
    @Test(arguments: [
        "Connection", "keep-alive", "TE", "Trailer", "Transfer-Encoding", "Upgrade", "Proxy-Authorization",
        "proxy-anything", "PROXY-CONNECTION",
    ])
    func alwaysHopByHopInAnyCase(name: String) {
        #expect(HopByHopFields.isHopByHop(name, connectionNames: []))
    }

    @Test(arguments: ["Content-Type", "Cache-Control", "Via", "Accept", "X-Proxy", "Trailers", ""])
    func endToEndFieldsAreKept(name: String) {
        #expect(!HopByHopFields.isHopByHop(name, connectionNames: []))
    }

    @Test func connectionNamesAreHopByHopToo() {
        let names = HopByHopFields.connectionNames(["close, X-Secret", " ,\tX-Other ,, "])
        #expect(names == ["close", "x-secret", "x-other"])
        #expect(HopByHopFields.isHopByHop("X-SECRET", connectionNames: names))
        #expect(!HopByHopFields.isHopByHop("X-Public", connectionNames: names))
        #expect(HopByHopFields.connectionNames([]).isEmpty)
        #expect(HopByHopFields.connectionNames(["", ","]).isEmpty)
    }

    @Test func aRelayedResponseKeepsOnlyWellFormedEndToEndFields() {
        let fields = HopByHopFields.responseFieldsToForward([
            "content-type": "image/jpeg", "etag": "\"a\"", "connection": "close, x-secret", "x-secret": "1",
            "keep-alive": "timeout=5", "transfer-encoding": "chunked", "content-length": "9", "x-bad": "a\r\nb",
            "cache-control": "max-age=60",
        ])
        #expect(fields.map(\.name) == ["content-type", "etag", "cache-control"])
        #expect(fields.map(\.value) == ["image/jpeg", "\"a\"", "max-age=60"])
    }

    /// RFC 9110 §5.3 and RFC 6265 §3: a relay passes every field as sent —
    /// in order, repeated names apart, names as spelled, bytes intact.
    @Test func aRelayedResponseKeepsEachFieldAsSent() {
        var sent = HTTPFieldList()
        sent.add(name: "Set-Cookie", value: "sid=abc; Path=/; HttpOnly")
        sent.add(name: "X-Between", value: "1")
        sent.add(name: "set-cookie", value: "theme=dark; Path=/")
        sent.add(HTTPFieldList.Field(name: "X-Latin1", valueBytes: Array("caf".utf8) + [0xE9]))
        let relayed = HopByHopFields.responseFieldsToForward(sent)
        #expect(relayed == sent)
        #expect(relayed.values(for: "Set-Cookie") == ["sid=abc; Path=/; HttpOnly", "theme=dark; Path=/"])
        #expect(relayed.fields(named: "x-latin1").first?.valueBytes == Array("caf".utf8) + [0xE9])
    }

    @Test func aForwardedRequestKeepsEachEndToEndFieldAsSent() {
        var sent: HTTPFieldList = ["Host": "a", "Accept": "image/webp", "Via": "1.1 x", "Expect": "100-continue"]
        sent.add(name: "Cookie", value: "a=1")
        sent.add(name: "Connection", value: "X-Hop")
        sent.add(name: "X-Hop", value: "1")
        sent.add(name: "cookie", value: "b=2")
        let forwarded = HopByHopFields.requestFieldsToForward(sent)
        #expect(forwarded == ["Accept": "image/webp", "Cookie": "a=1", "cookie": "b=2"])
    }
}
