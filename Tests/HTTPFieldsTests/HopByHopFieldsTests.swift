import TestTraits
import Testing

@testable import HTTPFields

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
        #expect(fields.map(\.name) == ["Cache-Control", "Content-Type", "ETag"])
        #expect(fields.map(\.value) == ["max-age=60", "image/jpeg", "\"a\""])
        #expect(HopByHopFields.canonicalName("x-webpbridge-wire-bytes") == "X-Webpbridge-Wire-Bytes")
    }
}
