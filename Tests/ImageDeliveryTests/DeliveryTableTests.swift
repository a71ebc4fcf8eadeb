import BridgeProxy
import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge
import WebPURLProtocol
import WebViewBridge

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One table of behaviours, run against the core and through both bridges,
/// so they cannot drift apart again. Each row is one request to a live
/// loopback site; each adapter turns its answer into the same ``Observed``.
@Suite(.serialized, .timeLimit(.suiteBound))
struct DeliveryTableTests {
    static let webPAccept = "image/avif,image/webp,image/*,*/*;q=0.8"
    static let otherAccept = "image/png,image/*;q=0.8,*/*;q=0.5"
    static let iPad = ClientProfile.iPadWebView.userAgent

    /// What a client ends up with, whichever bridge answered.
    enum Observed: Equatable, CustomStringConvertible {
        /// `200` with a body in this format.
        case image(ImageFormat)
        /// `304`.
        case notModified
        /// The original as the upstream answers it, with its status.
        case original(status: Int)
        /// `503` with `Retry-After`.
        case overloaded
        /// The upstream gave no answer (`502`, a `URLError`).
        case upstreamFailure

        var description: String {
            switch self {
            case .image(let format): "image(\(format.rawValue))"
            case .notModified: "304"
            case .original(let status): "original(\(status))"
            case .overloaded: "overloaded"
            case .upstreamFailure: "upstream failure"
            }
        }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var path: String
        var accept: String = DeliveryTableTests.otherAccept
        var userAgent: String = "table-client/1"
        var cacheControl: String?
        var policy: ClientPolicy = .standard
        /// Ask once, then again with the first answer's `ETag` in `If-None-Match`.
        var conditional = false
        /// Hold the only transcode slot while asking.
        var queueHeld = false
        /// Ask twice, as two clients would (the second without the first's tag).
        var twice = false
        /// An upstream that listens nowhere.
        var unreachable = false
        var expected: Observed
        /// Requests the site may receive for `path` (never the variant and the original both after a transcode).
        var upstreamRequests: ClosedRange<Int>?
        /// `Vary` of an image answer.
        var vary: String? = "Accept"
        /// Whether the image path claims the request (else the core relays
        /// it as it is, and URLSession, not the URL protocol, fetches it).
        var claimed = true
        /// The rule's formats, in its order.
        var formats: [VariantFormat] = [.webp]
        /// The client sends `Save-Data: on` to a bridge that passes it on
        /// (``ImageBridge/Configuration/forwardsSaveData``): every upstream
        /// request of the row must carry it.
        var savesData = false
        /// The app reports Low Data Mode to the bridge
        /// (``ImageBridge/update(_:)``): every upstream request of the row
        /// must save data, though the client sent no `Save-Data`.
        var lowDataLink = false
        /// The client sends `Sec-CH-Width: 300` to a bridge that passes
        /// width hints on (``ImageBridge/Configuration/forwardsClientHints``):
        /// every fetch of a variant must carry its bucket, 320.
        var widthHint = false

        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "a WebP client gets the variant as it is", path: "/photo.jpg", accept: webPAccept,
            expected: .image(.webp), upstreamRequests: 1...1),
        Row(
            name: "another client gets the variant as JPEG, the original never fetched", path: "/photo.jpg",
            expected: .image(.jpeg), upstreamRequests: 1...1),
        Row(
            name: "a variant with alpha becomes PNG, even when larger than the original", path: "/alpha.png",
            expected: .image(.png), upstreamRequests: 1...1),
        Row(
            name: "Cache-Control: no-transform from the client keeps the original", path: "/photo.jpg",
            cacheControl: "no-transform", expected: .original(status: 200), vary: nil, claimed: false),
        Row(
            name: "no-transform from the upstream hands over the original", path: "/notransform.jpg",
            expected: .original(status: 200), upstreamRequests: 2...2),
        Row(
            name: "a variant that will not decode hands over the original", path: "/broken.jpg",
            expected: .original(status: 200), upstreamRequests: 2...2),
        Row(
            name: "a variant over the transcode cap hands over the original", path: "/large.jpg",
            expected: .original(status: 200), upstreamRequests: 2...2),
        Row(
            name: "a missing image gets the upstream's 404", path: "/missing.jpg", expected: .original(status: 404)),
        Row(
            name: "a Save-Data client's variant is asked for with Save-Data", path: "/photo.jpg", accept: webPAccept,
            expected: .image(.webp), upstreamRequests: 1...1, vary: "Accept, Save-Data", savesData: true),
        Row(
            name: "a Save-Data client's transcode too", path: "/photo.jpg", expected: .image(.jpeg),
            upstreamRequests: 1...1, vary: "Accept, Save-Data", savesData: true),
        Row(
            name: "a Save-Data client's original after a failed variant too", path: "/broken.jpg",
            expected: .original(status: 200), upstreamRequests: 2...2, savesData: true),
        Row(
            name: "a width-hinting client's variant is asked for at its width bucket", path: "/photo.jpg",
            accept: webPAccept, expected: .image(.webp), upstreamRequests: 1...1, vary: hintsVary, widthHint: true),
        Row(
            name: "a width-hinting client's transcode too", path: "/photo.jpg", expected: .image(.jpeg),
            upstreamRequests: 1...1, vary: hintsVary, widthHint: true),
        Row(
            name: "in the app's Low Data Mode the variant is asked for with Save-Data", path: "/photo.jpg",
            accept: webPAccept, expected: .image(.webp), upstreamRequests: 1...1, lowDataLink: true),
        Row(
            name: "in the app's Low Data Mode the original after a failed variant too", path: "/broken.jpg",
            expected: .original(status: 200), upstreamRequests: 2...2, lowDataLink: true),
        Row(
            name: "a conditional request with the delivered tag gets 304", path: "/photo.jpg", conditional: true,
            expected: .notModified, upstreamRequests: 1...1),
        Row(
            name: "a full transcode queue answers 503 at once", path: "/photo.jpg", queueHeld: true,
            expected: .overloaded),
        Row(
            name: "an upstream that does not answer is a failure, not a hang", path: "/photo.jpg", unreachable: true,
            expected: .upstreamFailure),
        Row(
            name: "an excluded device class gets the original", path: "/photo.jpg", userAgent: iPad,
            policy: .legacy, expected: .original(status: 200), vary: nil, claimed: false),
        // A page that names an AVIF variant itself (issue 26, finding 12).
        Row(
            name: "an explicit AVIF URL gives a WebP client the WebP counterpart", path: explicitAVIF,
            accept: "image/webp,*/*", expected: .image(.webp)),
        Row(
            name: "an explicit AVIF URL gives another client the counterpart as JPEG", path: explicitAVIF,
            expected: .image(.jpeg)),
        Row(
            name: "an explicit AVIF URL is handed over to an AVIF client", path: explicitAVIF, accept: webPAccept,
            expected: .original(status: 200), claimed: false),
    ]

    /// The `Vary` of an image answer from a bridge that passes width hints on.
    static let hintsVary = "Accept, Sec-CH-DPR, DPR, Sec-CH-Width, Width, Sec-CH-Viewport-Width, Viewport-Width"
    static let explicitAVIF = "/photo.jpg?imageView2/2/w/640/format/avif"

    /// The whole ladder under a rule that lists AVIF, then WebP.
    static let avifRows: [Row] = [
        Row(
            name: "AVIF and WebP: an AVIF client gets the AVIF variant", path: "/photo.jpg", accept: webPAccept,
            expected: .image(.avif), upstreamRequests: 1...1, formats: [.avif, .webp]),
        Row(
            name: "AVIF and WebP: a WebP client gets the WebP variant", path: "/photo.jpg",
            accept: "image/webp,*/*", expected: .image(.webp), upstreamRequests: 1...1, formats: [.avif, .webp]),
        Row(
            name: "AVIF and WebP: a failing AVIF variant falls back to WebP, remembered for the next client",
            path: "/noavif.jpg", accept: webPAccept, twice: true, expected: .image(.webp), upstreamRequests: 2...2,
            formats: [.avif, .webp]),
        Row(
            name: "AVIF and WebP: an AVIF-only client whose AVIF fails gets the WebP variant transcoded",
            path: "/noavif.jpg", accept: "image/avif", expected: .image(.jpeg), upstreamRequests: 2...2,
            formats: [.avif, .webp]),
    ]

    enum Adapter: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case core, proxy
        case urlProtocol = "URL protocol"
        case schemeHandler = "scheme handler"
        var testDescription: String { rawValue }
    }

    @Test(arguments: rows + avifRows, Adapter.allCases)
    func behaves(_ row: Row, through adapter: Adapter) async throws {
        try await TableSite.with { site, base in
            let large = try #require(site.images["/large.jpg"])
            try #require(large.variant.count > site.transcodeCap, "the large variant is over the cap")
            let upstream = row.unreachable ? URL(string: "http://\(TableSite.host):1")! : base
            let url = URL(string: upstream.absoluteString + row.path)!
            let answers: [Answer]
            switch adapter {
            case .core: answers = try await Self.throughCore(row, url: url, cap: site.transcodeCap)
            case .proxy:
                answers = try await Self.throughProxy(row, url: url, upstream: upstream, cap: site.transcodeCap)
            case .urlProtocol: answers = try await Self.throughURLProtocol(row, url: url, cap: site.transcodeCap)
            case .schemeHandler: answers = try await Self.throughSchemeBridge(row, url: url, cap: site.transcodeCap)
            }
            let answer = try #require(answers.last)
            #expect(answer.observed == row.expected, "\(answer.observed) is not \(row.expected)")
            if case .image = row.expected {
                #expect(answer.vary == row.vary)
                #expect(answer.etag?.hasPrefix("\"wb-") == true)
            }
            if case .original(let status) = answer.observed, status == 200,
                let original = site.images[row.path]?.original
            {
                #expect(answer.body == original, "the original, byte for byte")
            }
            if let allowed = row.upstreamRequests {
                #expect(allowed.contains(site.requestCount(for: row.path)), "\(site.targets)")
            }
            #expect(
                site.targetsSavingData == (row.savesData || row.lowDataLink ? site.targets : []), "\(site.targets)")
            let variantWidths = zip(site.targets, site.widthHints).filter { $0.0.contains("?") }.map(\.1)
            #expect(variantWidths.allSatisfy { $0 == (row.widthHint ? "320" : "-") }, "\(site.widthHints)")
            if case .original = answer.observed, row.claimed || adapter != .urlProtocol {
                // Relayed by the core through the one hop-by-hop filter, whichever adapter sends it.
                #expect(answer.endToEnd == "kept")
                #expect(answer.hopByHop == nil)
            }
            if case .overloaded = answer.observed {
                // The core's text, the same through every adapter.
                #expect(answer.body.map { String(decoding: $0, as: UTF8.self) } == Delivery.overloadedReason + "\n")
            }
        }
    }

    /// One answer as a row compares it.
    struct Answer {
        var observed: Observed
        var vary: String?
        var etag: String?
        var body: Data?
        /// The upstream's end-to-end ``TableSite/endToEndField``, as relayed.
        var endToEnd: String?
        /// The upstream's ``TableSite/hopByHopField``, which no relay passes on.
        var hopByHop: String?
    }

    // MARK: Core

    static func imageBridge(_ row: Row, cap: Int) throws -> ImageBridge {
        let preset = try RewritePreset.configuration(
            named: "qiniu", host: TableSite.host, width: 640, formats: row.formats)
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: try Rewriter(configuration: preset), dataLoader: DataLoaders.platformDefault,
                memoryCache: nil, requestTimeout: .seconds(60)))
        var configuration = ImageBridge.Configuration(pipeline: pipeline, clientPolicy: row.policy)
        configuration.transcodeConcurrency = 1
        configuration.transcodeQueueLimit = 0
        configuration.maxTranscodeInputBytes = cap
        configuration.forwardsSaveData = row.savesData
        configuration.forwardsClientHints = row.widthHint
        let bridge = try ImageBridge(configuration: configuration)
        if row.lowDataLink { bridge.update(.lowData) }
        return bridge
    }

    static func facts(_ row: Row, url: URL, ifNoneMatch: String? = nil) -> DeliveryRequest {
        DeliveryRequest(method: "GET", url: url, fields: fields(row, ifNoneMatch: ifNoneMatch))
    }

    /// The row's request fields, as every adapter's client sends them.
    static func fields(_ row: Row, ifNoneMatch: String?) -> HTTPFieldList {
        var fields: HTTPFieldList = ["Accept": row.accept, "User-Agent": row.userAgent]
        if let cacheControl = row.cacheControl { fields["Cache-Control"] = cacheControl }
        if let ifNoneMatch { fields["If-None-Match"] = ifNoneMatch }
        if row.savesData { fields["Save-Data"] = "on" }
        if row.widthHint { fields["Sec-CH-Width"] = "300" }
        return fields
    }

    /// The core's finished answer (``Delivery/answer``), read as the proxy's
    /// response is: the core fetches and relays the original itself, and a
    /// request it passes through is relayed by it too.
    static func throughCore(_ row: Row, url: URL, cap: Int) async throws -> [Answer] {
        let bridge = try imageBridge(row, cap: cap)
        func ask(_ ifNoneMatch: String?) async -> Answer {
            let request = facts(row, url: url, ifNoneMatch: ifNoneMatch)
            let delivery: Delivery
            switch bridge.route(request) {
            case .image(let plan): delivery = await bridge.deliver(plan)
            case .passThrough(let vary, let accept):
                delivery = await bridge.relay(request, vary: vary, upstreamAccept: accept)
            }
            if case .upstreamFailure = delivery.content { return Answer(observed: .upstreamFailure) }
            let answer = delivery.answer
            return Answer(
                observed: observed(
                    status: answer.statusCode, contentType: answer.fields["Content-Type"],
                    retryAfter: answer.fields["Retry-After"], body: answer.body, image: answer.fields["ETag"] != nil),
                vary: answer.fields["Vary"], etag: answer.fields["ETag"], body: answer.body,
                endToEnd: answer.fields[TableSite.endToEndField], hopByHop: answer.fields[TableSite.hopByHopField])
        }
        return try await askAll(row, queue: bridge.transcodeQueue, ask)
    }

    /// The row's requests: one, or a first and a conditional second; the
    /// last with the queue held when the row says so.
    static func askAll(
        _ row: Row, queue: WorkQueue, _ ask: (String?) async throws -> Answer
    ) async throws -> [Answer] {
        var answers: [Answer] = []
        if row.conditional {
            let first = try await ask(nil)
            answers.append(first)
            answers.append(try await ask(first.etag))
        } else if row.twice {
            answers.append(try await ask(nil))
            answers.append(try await ask(nil))
        } else if row.queueHeld {
            answers.append(try await queue.withSlot { try await ask(nil) })
        } else {
            answers.append(try await ask(nil))
        }
        return answers
    }

    // MARK: Proxy

    static func throughProxy(_ row: Row, url: URL, upstream: URL, cap: Int) async throws -> [Answer] {
        let preset = try RewritePreset.configuration(
            named: "qiniu", host: TableSite.host, width: 640, formats: row.formats)
        let rewriter = try Rewriter(configuration: preset)
        let mode = BridgeProxy.Configuration.Mode.reverse(upstream: upstream)
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: rewriter, dataLoader: DataLoaders.platformDefault, memoryCache: nil,
                requestTimeout: .seconds(60), redirectPolicy: mode.redirectPolicy(rewriter: rewriter)))
        var configuration = BridgeProxy.Configuration(mode: mode, pipeline: pipeline, clientPolicy: row.policy)
        configuration.transcodeConcurrency = 1
        configuration.transcodeQueueLimit = 0
        configuration.limits.maxTranscodeInputBytes = cap
        configuration.forwardsSaveData = row.savesData
        configuration.forwardsClientHints = row.widthHint
        let proxy = try BridgeProxy(configuration: configuration)
        if row.lowDataLink { proxy.imageBridge.update(.lowData) }
        return try await askAll(row, queue: proxy.transcodeQueue) { ifNoneMatch in
            var headers = fields(row, ifNoneMatch: ifNoneMatch)
            headers["Host"] = "bridge.test"
            let response = await proxy.handle(HTTPRequest(method: .get, target: row.path, headers: headers))
            var body: Data?
            switch response.body {
            case .data(let data): body = data
            // A passed-through answer is held as bytes charged to the bridge's budget until sent.
            case .bytes(let bytes): body = bytes.data
            case .empty, .file: break
            }
            return Answer(
                observed: observed(
                    status: response.status.code, contentType: response.headers["Content-Type"],
                    retryAfter: response.headers["Retry-After"], body: body, image: response.headers["ETag"] != nil),
                vary: response.headers["Vary"], etag: response.headers["ETag"], body: body,
                endToEnd: response.headers[TableSite.endToEndField],
                hopByHop: response.headers[TableSite.hopByHopField])
        }
    }

    /// An HTTP answer as a row sees it: an image the bridge made carries its
    /// `ETag`; anything else from the upstream is the original.
    static func observed(status: Int, contentType: String?, retryAfter: String?, body: Data?, image: Bool)
        -> Observed
    {
        switch status {
        case 304: return .notModified
        case 503 where retryAfter != nil: return .overloaded
        case 502: return .upstreamFailure
        case 200 where image:
            return body.flatMap { ImageFormat.sniffIfImage($0) }.map(Observed.image) ?? .original(status: 200)
        default: return .original(status: status)
        }
    }

    // MARK: Scheme handler

    /// What `WebPBridgeSchemeHandler` would hand a web view: the portable
    /// bridge it adapts, asked for the row's URL in the custom scheme.
    static func throughSchemeBridge(_ row: Row, url: URL, cap: Int) async throws -> [Answer] {
        let bridge = try imageBridge(row, cap: cap)
        let schemeBridge = WebViewSchemeBridge(imageBridge: bridge)
        let customURL = try #require(schemeBridge.scheme.customURL(for: url))
        return try await askAll(row, queue: bridge.transcodeQueue) { ifNoneMatch in
            let fields = fields(row, ifNoneMatch: ifNoneMatch)
            switch await schemeBridge.respond(to: SchemeRequest(url: customURL, fields: fields)) {
            case .response(let response):
                return Answer(
                    observed: observed(
                        status: response.statusCode, contentType: response.fields["Content-Type"],
                        retryAfter: response.fields["Retry-After"], body: response.body,
                        image: response.fields["ETag"] != nil),
                    vary: response.fields["Vary"], etag: response.fields["ETag"], body: response.body,
                    endToEnd: response.fields[TableSite.endToEndField],
                    hopByHop: response.fields[TableSite.hopByHopField])
            case .failed:
                return Answer(observed: .upstreamFailure)
            }
        }
    }

    // MARK: URL protocol

    static func throughURLProtocol(_ row: Row, url: URL, cap: Int) async throws -> [Answer] {
        let bridge = try imageBridge(row, cap: cap)
        let registration = WebPURLProtocol.WebPBridgeURLProtocol.register(.init(imageBridge: bridge))
        let session = URLSession(configuration: WebPBridgeURLProtocol.sessionConfiguration(base: .ephemeral))
        defer {
            WebPBridgeURLProtocol.unregister(registration)
            session.finishTasksAndInvalidate()
        }
        return try await askAll(row, queue: bridge.transcodeQueue) { ifNoneMatch in
            var request = URLRequest(
                url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: SuiteBound.seconds)
            for field in fields(row, ifNoneMatch: ifNoneMatch) {
                request.setValue(field.value, forHTTPHeaderField: field.name)
            }
            let body: Data
            let response: URLResponse
            do {
                (body, response) = try await session.data(for: request)
            } catch is URLError {
                return Answer(observed: .upstreamFailure)
            }
            let http = try #require(response as? HTTPURLResponse)
            let etag = http.value(forHTTPHeaderField: "ETag")
            return Answer(
                observed: observed(
                    status: http.statusCode, contentType: http.value(forHTTPHeaderField: "Content-Type"),
                    retryAfter: http.value(forHTTPHeaderField: "Retry-After"), body: body,
                    image: etag?.hasPrefix("\"wb-") == true),
                vary: http.value(forHTTPHeaderField: "Vary"), etag: etag, body: body,
                endToEnd: http.value(forHTTPHeaderField: TableSite.endToEndField),
                hopByHop: http.value(forHTTPHeaderField: TableSite.hopByHopField))
        }
    }
}
