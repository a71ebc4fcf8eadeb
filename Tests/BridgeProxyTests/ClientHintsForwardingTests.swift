import BridgeProxy
import Foundation
import HTTPServer
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// `proxy --client-hints`: a client's width hints go on with its image
/// request as a width bucket (`Sec-CH-Width`), its answer is kept apart per
/// bucket (the data cache and the memoised answers), and image answers vary
/// on the hints. Without the flag they are not read.
@Suite(.timeLimit(.suiteBound))
struct ClientHintsForwardingTests {
    /// The fixture's site, except that a variant asked for with
    /// `Sec-CH-Width` is a WebP that says the width in its size.
    static func sizingUpstream(_ fixture: BridgeFixture) throws -> ScriptedDataLoader {
        let narrow = try [160, 320].reduce(into: [String: Data]()) { images, width in
            images[String(width)] = try WebPEncoder(options: .init(quality: 50)).encode(
                SyntheticImages.photo(width: width / 4, height: 10))
        }
        return ScriptedDataLoader { request, onChunk throws(DataLoadingError) in
            guard let width = request.headers[ClientHints.widthFieldName], request.url.query != nil else {
                return try await fixture.upstream.load(request, onChunk: onChunk)
            }
            return DataResponse(
                url: request.url, statusCode: 200,
                headers: ["Content-Type": "image/webp", "Cache-Control": "max-age=86400", "ETag": "\"w\(width)\""],
                body: narrow[width] ?? Data("no such width".utf8))
        }
    }

    static func request(_ hints: [(String, String)]) -> HTTPRequest {
        var request = HTTPRequest.webView("/photo.jpg", accept: BridgeFixture.webPAccept)
        for (name, value) in hints { request.headers.add(name: name, value: value) }
        return request
    }

    @Test func eachBucketGetsItsOwnAnswerOnTheWireAndFromTheMemo() async throws {
        let fixture = try BridgeFixture()
        let upstream = try Self.sizingUpstream(fixture)
        let bridge = try fixture.bridge(loader: upstream) { $0.forwardsClientHints = true }
        let phone = Self.request([("Sec-CH-Viewport-Width", "100"), ("Sec-CH-DPR", "3")])  // 300 px: 320
        let thumb = Self.request([("Width", "150")])  // 160
        let plain = Self.request([])

        let phoneAnswer = await bridge.handle(phone)
        let thumbAnswer = await bridge.handle(thumb)
        let plainAnswer = await bridge.handle(plain)
        let answers = [phoneAnswer, thumbAnswer, plainAnswer]
        #expect(answers.allSatisfy { $0.status == .ok && !$0.bodyData.isEmpty })
        #expect(Set(answers.map(\.bodyData)).count == 3, "three widths, three answers")
        let vary = "Accept, Sec-CH-DPR, DPR, Sec-CH-Width, Width, Sec-CH-Viewport-Width, Viewport-Width"
        #expect(answers.allSatisfy { $0.headers["Vary"] == vary }, "every image answer varies on them, sent or not")
        let sent = upstream.requests.filter { $0.url.query != nil }.map { $0.headers["Sec-CH-Width"] ?? "-" }
        #expect(sent == ["320", "160", "-"])
        #expect(upstream.requests.allSatisfy { $0.headers["Sec-CH-DPR"] == nil && $0.headers["Width"] == nil })

        // Repeats are hits, memoised apart; another request in the same bucket shares its answer.
        let samePhoneBucket = Self.request([("Sec-CH-Width", "310")])
        for _ in 0..<2 {
            #expect(await bridge.handle(phone).bodyData == phoneAnswer.bodyData)
            #expect(await bridge.handle(thumb).bodyData == thumbAnswer.bodyData)
            #expect(await bridge.handle(samePhoneBucket).bodyData == phoneAnswer.bodyData)
            #expect(bridge.immediateResponse(to: phone)?.bodyData == phoneAnswer.bodyData)
            #expect(bridge.immediateResponse(to: thumb)?.bodyData == thumbAnswer.bodyData)
            #expect(bridge.immediateResponse(to: plain)?.bodyData == plainAnswer.bodyData)
        }
        #expect(upstream.requests.count(where: { $0.url.query != nil }) == 3, "nothing more on the wire")
    }

    @Test func withoutTheFlagTheHintsAreNotRead() async throws {
        let fixture = try BridgeFixture()
        let upstream = try Self.sizingUpstream(fixture)
        let bridge = try fixture.bridge(loader: upstream)
        let answer = await bridge.handle(Self.request([("Sec-CH-Width", "150")]))
        #expect(answer.status == .ok && answer.headers["Vary"] == "Accept")
        #expect(upstream.requests.allSatisfy { $0.headers["Sec-CH-Width"] == nil })
    }

    /// The whole chain: the proxy passes the hints on as a bucket, and an
    /// origin with `--client-hints` answers the variant at that width.
    @Test func anOriginThatSizesByHintsAnswersTheBucket() async throws {
        let fixture = try BridgeFixture()
        var configuration = ImageOrigin.Configuration(root: fixture.folder.url.path)
        configuration.clientHints = true
        let origin = try ImageOrigin(configuration: configuration)
        let upstream = ScriptedDataLoader(serving: ClosureHTTPHandler { await origin.handle($0) })
        let bridge = try fixture.bridge(loader: upstream) { $0.forwardsClientHints = true }
        var widths: [Int] = []
        for hints in [[("Sec-CH-Viewport-Width", "100"), ("Sec-CH-DPR", "3")], [("Width", "150")], []] {
            let answer = await bridge.handle(Self.request(hints))
            #expect(answer.status == .ok && answer.headers["Content-Type"] == "image/webp")
            widths.append(try WebPDecoder().decode(answer.bodyData).width)
        }
        #expect(widths == [320, 160, 750], "the buckets, then the rule's width")
    }
}
