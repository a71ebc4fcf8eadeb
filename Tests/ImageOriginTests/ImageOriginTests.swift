import Foundation
import HTTPServer
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct ImageOriginTests {
    let fixture: OriginFixture

    init() throws { fixture = try OriginFixture() }

    @Test func plainFilesAreServedAsTheyAreWithValidators() async throws {
        let origin = try fixture.origin()
        let response = await origin.get("/photo.jpg")
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "image/jpeg")
        #expect(response.bodyData == (try fixture.data("photo.jpg")))
        #expect(response.headers["ETag"]?.hasPrefix("\"") == true)
        #expect(response.headers["Last-Modified"]?.hasSuffix(" GMT") == true)
        #expect(response.headers["Vary"] == nil)
        let head = await origin.get("/photo.jpg", method: .head)
        #expect(head.status == .ok && head.headers["ETag"] == response.headers["ETag"])
        let nested = await origin.get("/sub%20dir/tall.jpg")
        #expect(nested.status == .ok)
        #expect(await origin.get("/inside.jpg").status == .ok)
    }

    @Test(arguments: [
        ("imageView2/0/w/400/h/300", 400, 300), ("imageView2/1/w/100/h/100", 100, 100),
        ("imageView2/2/w/200", 200, 150), ("imageView2/2/h/60", 80, 60), ("imageView2/3/w/200/h/200", 267, 200),
        ("imageView2/4/w/200/h/100", 200, 150), ("imageView2/5/w/200/h/100", 200, 100),
        ("imageView2/2/w/5000", 800, 600), ("imageMogr2/thumbnail/!25p", 200, 150),
        ("imageMogr2/thumbnail/x120", 160, 120), ("imageView2/1/w/300/h/300|imageMogr2/thumbnail/150x", 150, 150),
    ])
    func modesProduceTheirSizes(fop: String, width: Int, height: Int) async throws {
        let origin = try fixture.origin()
        let response = await origin.get("/photo.jpg?\(fop)/format/png")
        #expect(response.status == .ok, "\(response.bodyText)")
        let info = try ImageInfo(response.bodyData)
        #expect(info.format == .png)
        #expect(info.width == width && info.height == height, "\(fop): \(info.width)x\(info.height)")
    }

    @Test func formatsQualityAndInterlace() async throws {
        let origin = try fixture.origin()
        let webp = await origin.get("/photo.jpg?imageView2/2/w/400/format/webp")
        #expect(webp.headers["Content-Type"] == "image/webp")
        #expect(try ImageFormat.sniff(webp.bodyData) == .webp)
        let low = await origin.get("/photo.jpg?imageView2/2/w/400/format/jpg/q/20")
        let high = await origin.get("/photo.jpg?imageView2/2/w/400/format/jpg/q/95")
        #expect(low.bodyData.count < high.bodyData.count)
        let progressive = await origin.get("/photo.jpg?imageView2/2/w/400/format/jpg/interlace/1")
        #expect(progressive.bodyData.range(of: Data([0xFF, 0xC2])) != nil, "a progressive JPEG has an SOF2 marker")
        let sameFormat = await origin.get("/logo.png?imageView2/2/w/100")
        #expect(sameFormat.headers["Content-Type"] == "image/png")
        let alpha = try PNGDecoder().decode(sameFormat.bodyData)
        #expect(!alpha.isOpaque, "PNG output keeps the alpha")
    }

    @Test func animatedSourcesStayAnimatedAsWebP() async throws {
        let origin = try fixture.origin()
        let response = await origin.get("/anim.webp?imageView2/2/w/60")
        let info = try ImageInfo(response.bodyData)
        #expect(info.frames == 4 && info.width == 60 && info.height == 40)
    }

    @Test(arguments: [
        "imageView2/format/webp", "imageView2/7/w/10", "imageView2/2/w/abc", "imageMogr2/crop/10x10", "watermark/1",
    ])
    func malformedProcessingIs400(_ fop: String) async throws {
        let response = await (try fixture.origin()).get("/photo.jpg?\(fop)")
        #expect(response.status == .badRequest)
        #expect(response.bodyText.hasPrefix("bad processing request: "))
    }

    @Test func failedTransformationsGiveTheirStatusOrTheSourceWithIgnoreError() async throws {
        let origin = try fixture.origin()
        #expect(await origin.get("/broken.jpg?imageView2/2/w/100").status == .unsupportedMediaType)
        let ignored = await origin.get("/broken.jpg?imageView2/2/w/100/ignore-error/1")
        #expect(ignored.status == .ok)
        #expect(ignored.bodyData == (try fixture.data("broken.jpg")))
        #expect(await origin.get("/notes.txt").status == .ok, "a site's other files are served as they are")
        #expect(await origin.get("/notes.txt?imageView2/2/w/100").status == .unsupportedMediaType)

        let small = try fixture.origin { $0.transformer.limits = DecodingLimits(maxPixelsPerFrame: 10_000) }
        #expect(await small.get("/photo.jpg?imageView2/2/w/50").status == .contentTooLarge)
        let tiny = try fixture.origin { $0.transformer.maxSourceBytes = 100 }
        #expect(await tiny.get("/photo.jpg?imageView2/2/w/50").status == .contentTooLarge)
        let ignoredLimit = await tiny.get("/photo.jpg?imageView2/2/w/50/ignore-error/1")
        let source = try fixture.data("photo.jpg")
        #expect(ignoredLimit.status == .ok && ignoredLimit.bodyData == source)
    }

    @Test(arguments: [
        "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/sub%20dir/%2e%2e/%2e%2e/secret.txt",
        "/escape.jpg", "/photo.jpg%00.png", "/..%2fsecret.txt", "/sub%20dir/..%5c..%5csecret.txt",
    ])
    func pathsThatLeaveTheRootAreRefused(_ target: String) async throws {
        let response = await (try fixture.origin()).get(target)
        #expect(response.status == .forbidden, "\(target): \(response.status)")
    }

    @Test func missingFilesAre404AndOtherMethods405() async throws {
        let origin = try fixture.origin()
        #expect(await origin.get("/nope.jpg").status == .notFound)
        #expect(await origin.get("/").status == .notFound)
        #expect(await origin.get("/sub%20dir").status == .notFound)
        let post = await origin.get("/photo.jpg", method: .post)
        #expect(post.status == .methodNotAllowed && post.headers["Allow"] == "GET, HEAD")
    }

    @Test func stylesApplyWhenThePathNamesNoFile() async throws {
        let styles = try StyleSheet(
            json: Data(
                (#"{"separator": "-", "styles": {"WebPiOSW750": "imageView2/2/w/750/format/webp","#
                    + #" "small": "imageView2/2/w/100"}}"#).utf8))
        let origin = try fixture.origin { $0.styles = styles }
        let styled = await origin.get("/photo.jpg-WebPiOSW750")
        #expect(styled.headers["Content-Type"] == "image/webp")
        let info = try ImageInfo(styled.bodyData)
        #expect(info.width == 750 && info.height == 563)
        let small = await origin.get("/sub%20dir/tall.jpg-small")
        #expect(try ImageInfo(small.bodyData).width == 100)
        #expect(await origin.get("/photo.jpg-unknown").status == .notFound)
    }

    @Test func autoWebPNegotiatesByAcceptAndVaries() async throws {
        let origin = try fixture.origin { $0.autoWebP = true }
        let chrome = await origin.get("/photo.jpg", headers: ["Accept": "image/avif,image/webp,*/*"])
        #expect(chrome.headers["Content-Type"] == "image/webp" && chrome.headers["Vary"] == "Accept")
        #expect(chrome.bodyData.count < (try fixture.data("photo.jpg")).count)
        for accept in ["image/*", "*/*", "image/webp;q=0"] {
            let old = await origin.get("/photo.jpg", headers: ["Accept": accept])
            #expect(old.headers["Content-Type"] == "image/jpeg" && old.headers["Vary"] == "Accept", "\(accept)")
        }
        #expect(chrome.headers["ETag"] != (await origin.get("/photo.jpg")).headers["ETag"])
        // Explicit formats are not negotiated.
        let explicit = await origin.get("/photo.jpg?imageView2/2/w/100/format/jpg", headers: ["Accept": "image/webp"])
        #expect(explicit.headers["Content-Type"] == "image/jpeg" && explicit.headers["Vary"] == nil)
        // A resize without a format is negotiated too.
        let resized = await origin.get("/photo.jpg?imageView2/2/w/100", headers: ["Accept": "image/webp"])
        #expect(resized.headers["Content-Type"] == "image/webp" && resized.headers["Vary"] == "Accept")
    }

    @Test func theSourceIsServedWhenTheWebPWouldBeLarger() async throws {
        let origin = try fixture.origin { $0.autoWebP = true }
        // A JPEG at quality 3 is tiny; its blocks cost a WebP more bytes.
        let response = await origin.get("/blocky.jpg", headers: ["Accept": "image/webp"])
        #expect(response.headers["Content-Type"] == "image/jpeg")
        #expect(response.bodyData == (try fixture.data("blocky.jpg")))
        #expect(response.headers["Vary"] == "Accept")
    }

    @Test func conditionalRequestsGet304WithVary() async throws {
        let origin = try fixture.origin { $0.autoWebP = true }
        let first = await origin.get("/photo.jpg", headers: ["Accept": "image/webp"])
        let etag = try #require(first.headers["ETag"])
        let revalidated = await origin.get("/photo.jpg", headers: ["Accept": "image/webp", "If-None-Match": etag])
        #expect(revalidated.status == .notModified)
        #expect(revalidated.headers["Vary"] == "Accept" && revalidated.headers["ETag"] == etag)
        #expect(revalidated.bodyData.isEmpty)
        let weak = await origin.get(
            "/photo.jpg", headers: ["Accept": "image/webp", "If-None-Match": "W/\(etag), \"x\""])
        #expect(weak.status == .notModified)
        let otherClass = await origin.get("/photo.jpg", headers: ["If-None-Match": etag])
        #expect(otherClass.status == .ok, "a JPEG client does not match the WebP's tag")
        let lastModified = try #require(first.headers["Last-Modified"])
        #expect(await origin.get("/photo.jpg", headers: ["If-Modified-Since": lastModified]).status == .notModified)
        let old = HTTPDate.format(Date(timeIntervalSince1970: 1_000_000))
        #expect(await origin.get("/photo.jpg", headers: ["If-Modified-Since": old]).status == .ok)
        let variant = await origin.get("/photo.jpg?imageView2/2/w/100")
        let variantTag = try #require(variant.headers["ETag"])
        #expect(
            await origin.get("/photo.jpg?imageView2/2/w/100", headers: ["If-None-Match": variantTag]).status
                == .notModified)
        #expect(await origin.get("/photo.jpg?imageView2/2/w/101", headers: ["If-None-Match": variantTag]).status == .ok)
    }

    @Test func repeatedVariantsComeFromTheCache() async throws {
        let origin = try fixture.origin()
        let first = await origin.get("/photo.jpg?imageView2/2/w/300/format/webp")
        let second = await origin.get("/photo.jpg?imageView2/2/w/300/format/webp&v=2")
        #expect(first.bodyData == second.bodyData)
        let metrics = origin.metrics.render()
        #expect(metrics.contains("webpbridge_origin_variant_cache_total{result=\"hit\"} 1"))
        #expect(metrics.contains("webpbridge_origin_variant_cache_total{result=\"miss\"} 1"))
        #expect(metrics.contains("webpbridge_origin_transform_seconds_count 1"))
    }

    @Test func healthAndMetricsEndpoints() async throws {
        let origin = try fixture.origin()
        _ = await origin.get("/nope.jpg")
        #expect((await origin.get("/healthz")).bodyText == "ok\n")
        let metrics = await origin.get("/metrics")
        #expect(metrics.headers["Content-Type"] == MetricsRegistry.contentType)
        #expect(metrics.bodyText.contains("webpbridge_origin_requests_total{status=\"404\"} 1"))
        #expect(metrics.bodyText.contains("# TYPE webpbridge_origin_bytes_served_total counter"))
    }

    @Test func aFullQueueAnswers503WithRetryAfterAndRecovers() async throws {
        let big = fixture.root.appendingPathComponent("big.jpg")
        try JPEGEncoder().encode(SyntheticImages.photo(width: 2400, height: 1800)).write(to: big)
        let origin = try fixture.origin {
            $0.maxConcurrentTransforms = 1
            $0.maxQueuedTransforms = 0
        }
        let statuses = await withTaskGroup(of: HTTPStatus.self) { group in
            for width in 100..<108 {
                group.addTask { await origin.get("/big.jpg?imageView2/2/w/\(width)/format/webp").status }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.contains(.serviceUnavailable))
        #expect(statuses.allSatisfy { $0 == .ok || $0 == .serviceUnavailable })
        let refused = await origin.get("/big.jpg?imageView2/2/w/100/format/png")
        if refused.status == .serviceUnavailable { #expect(refused.headers["Retry-After"] == "1") }
        #expect(await origin.get("/photo.jpg?imageView2/2/w/64").status == .ok)
    }

    @Test func aRootThatIsNotAFolderIsRefused() throws {
        #expect(throws: FileResolverError.self) {
            try ImageOrigin(configuration: .init(root: fixture.root.appendingPathComponent("photo.jpg").path))
        }
        #expect(throws: FileResolverError.self) { try ImageOrigin(configuration: .init(root: "/no/such/folder")) }
    }
}
