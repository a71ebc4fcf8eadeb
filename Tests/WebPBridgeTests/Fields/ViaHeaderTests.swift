import TestTraits
import Testing

@testable import WebPBridge

@Suite(.timeLimit(.suiteBound))
struct ViaHeaderTests {
    let via = ViaHeader(token: "webp-bridge")

    @Test func theEntryNamesTheProtocolVersion() {
        #expect(via.entry() == "1.1 webp-bridge")
        #expect(via.entry(protocolVersion: "HTTP/1.0") == "1.0 webp-bridge")
        #expect(via.entry(protocolVersion: "HTTP/2") == "1.1 webp-bridge")
    }

    @Test func appendingPutsTheNewestLast() {
        #expect(via.appended(to: nil) == "1.1 webp-bridge")
        #expect(via.appended(to: "") == "1.1 webp-bridge")
        #expect(
            via.appended(to: "1.0 cdn (Varnish)", protocolVersion: "HTTP/1.0") == "1.0 cdn (Varnish), 1.0 webp-bridge")
    }

    @Test(arguments: [
        (["1.1 webp-bridge"], true), (["1.1 cdn, 1.1 WEBP-BRIDGE (v1)"], true),
        (["1.1 cdn", "HTTP/1.1 webp-bridge"], true),
        (["1.1\twebp-bridge"], true), (["webp-bridge"], false), (["1.1 webp-bridge-2"], false),
        (["1.1 cdn (webp-bridge)"], false), ([], false), ([""], false), ([",,, ,"], false),
    ])
    func aLoopIsThisTokenAsAReceivedBy(values: [String], loops: Bool) {
        #expect(via.isLoop(values) == loops)
    }

    @Test func aLongChainIsLinear() {
        let chain = Array(repeating: "1.1 hop", count: 100_000).joined(separator: ", ")
        #expect(!via.isLoop([chain]))
        #expect(via.isLoop([chain, via.appended(to: chain)]))
    }
}
