import Foundation
import HTTPServer
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// `fetch` against a live origin on loopback that knows the legacy app's
/// style, as the original app's CDN did. Serialized: each run registers a
/// pipeline for the same host, and the newest registration claims requests.
@Suite(.serialized, .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct FetchCommandTests {
    /// Starts an origin with `photo.jpg` (opaque) and `logo.png` (alpha).
    static func withOrigin(_ body: (String, TemporaryDirectory) async throws -> Void) async throws {
        let folder = try TemporaryDirectory(prefix: "fetch-origin")
        try JPEGEncoder(options: .init(quality: 90)).encode(SyntheticImages.photo(width: 1000, height: 600))
            .write(to: folder.file("photo.jpg"))
        try PNGEncoder().encode(SyntheticImages.photo(width: 200, height: 120, alpha: true)).write(
            to: folder.file("logo.png"))
        let styles = try StyleSheet(
            json: Data(#"{"separator": "-", "styles": {"WebPiOSW750": "imageView2/2/w/750/format/webp"}}"#.utf8))
        let origin = try ImageOrigin(configuration: .init(root: folder.url.path, styles: styles))
        let server = HTTPServer(handler: origin)
        let endpoint = try await server.start()
        do {
            try await body(endpoint.url, folder)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    static func fetch(
        _ url: String, _ extra: [String] = [], preset: String = "qiniu-legacy"
    ) async -> (status: Int32, json: [String: Any], stderr: String) {
        let result = await CapturedIO.run(
            ["fetch", url, "--preset", preset, "--host", "127.0.0.1", "--width", "750", "--json"] + extra)
        let json = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any] ?? [:]
        return (result.status, json, result.stderr)
    }

    @Test func aWebViewGetsJPEGForAPhotoAndPNGForAlpha() async throws {
        try await Self.withOrigin { base, folder in
            let photo = await Self.fetch("\(base)/photo.jpg")
            #expect(photo.status == 0, "\(photo.stderr)")
            #expect(photo.json["contentType"] as? String == "image/jpeg")
            #expect((photo.json["fetchedURL"] as? String)?.hasSuffix("/photo.jpg-WebPiOSW750") == true)
            #expect(photo.json["fallback"] as? Bool == false)
            let logo = await Self.fetch("\(base)/logo.png")
            #expect(logo.json["contentType"] as? String == "image/png")
            #expect(
                Set(photo.json.keys) == [
                    "requestedURL", "fetchedURL", "status", "delivery", "contentType", "wireBytes", "cache",
                    "fallback", "etag", "bytes",
                ])
            #expect(photo.json["delivery"] as? String == "transcoded")
            #expect(photo.json["status"] as? Int == 200)
        }
    }

    @Test func twiceWithOneCacheDirIsNetworkThenDisk() async throws {
        try await Self.withOrigin { base, folder in
            let cache = folder.file("cache").path
            let first = await Self.fetch("\(base)/photo.jpg", ["--cache-dir", cache])
            let second = await Self.fetch("\(base)/photo.jpg", ["--cache-dir", cache])
            #expect(first.json["cache"] as? String == "network")
            #expect(second.json["cache"] as? String == "disk")
            #expect((first.json["wireBytes"] as? Int ?? 0) > 0)
            #expect(second.json["wireBytes"] as? Int == 0)
        }
    }

    @Test func aClientAcceptingWebPGetsWebP() async throws {
        try await Self.withOrigin { base, folder in
            let output = folder.file("out.webp")
            // The `accept` policy (qiniu preset) negotiates; the legacy one looks at the User-Agent only.
            let result = await Self.fetch(
                "\(base)/photo.jpg", ["--accept", "image/webp,*/*", "-o", output.path], preset: "qiniu")
            #expect(result.json["contentType"] as? String == "image/webp")
            let legacy = await Self.fetch("\(base)/photo.jpg", ["--accept", "image/webp,*/*"])
            #expect(legacy.json["contentType"] as? String == "image/jpeg")
            let info = try ImageInfo(Data(contentsOf: output))
            #expect(info.width == 750)
        }
    }

    @Test func noImageAtAllExitsOne() async throws {
        try await Self.withOrigin { base, _ in
            let result = await Self.fetch("\(base)/missing.jpg")
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("error: ") && result.stderr.contains("missing.jpg"))
        }
    }

    /// A redirect to a host the rules do not name (nor the URL's own) is not
    /// followed: its target gets no request, and `fetch` says why it failed.
    @Test func aRedirectOutsideTheRulesIsNotFollowed() async throws {
        try await LoopbackServer.withRedirectElsewhere { upstream, elsewhere in
            // An image the bridge claims, and a page it leaves to URLSession itself.
            for path in ["/a.jpg", "/page.html"] {
                let result = await Self.fetch(upstream.url(path).absoluteString, preset: "qiniu")
                #expect(result.status == 1)
                #expect(result.stderr.contains("not followed"), "\(path): \(result.stderr)")
                #expect(result.stderr.contains(elsewhere.url(path).absoluteString), "\(result.stderr)")
            }
            #expect(elsewhere.requestCount == 0, "the host no rule names was contacted")
        }
    }

    @Test func usageErrors() async {
        #expect(await CapturedIO.run(["fetch"]).status == 2)
        #expect(await CapturedIO.run(["fetch", "ftp://x/a.jpg", "--preset", "qiniu", "--host", "x"]).status == 2)
        #expect(await CapturedIO.run(["fetch", "http://x/a.jpg"]).status == 2)
    }
}
