import BridgeProxy
import Foundation
import HTTPServer
import ImageOrigin
import TestSupport
import WebPBridge

/// A site at `img.test` served in-process: an `ImageOrigin` for the photos
/// (WebP variants by Qiniu's grammar) plus fixed pages, scripts, a GIF,
/// redirects and a `no-transform` image; and bridges in front of it.
struct BridgeFixture {
    let folder: TemporaryDirectory
    let upstream: ScriptedDataLoader
    let photoJPEG: Data
    let logoPNG: Data
    /// `/flat.png`: an original whose variant, transcoded to PNG, outweighs it.
    let flatPNG: Data
    /// `/flat.png`'s variant: a busy lossy WebP with alpha.
    let busyAlphaWebP: Data

    static let html = Data("<!doctype html><title>front page</title><img src=\"/photo.jpg\">\n".utf8)
    static let css = Data("body { margin: 0 }\n".utf8)
    static let javascript = Data("console.log('hi')\n".utf8)
    /// A 1×1 GIF, byte for byte.
    static let gif = Data([
        0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xff, 0xff, 0xff, 0x00, 0x00,
        0x00, 0x21, 0xf9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
        0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b,
    ])

    static let webKitUserAgent = ClientProfile.iOSWebView.userAgent
    static let noWebPAccept = ClientProfile.iOSWebView.imageAccept
    static let webPAccept = ClientProfile.chrome80.imageAccept

    /// The encoded samples, made once per test process: encoding is the
    /// costly part of a fixture, and suites run in parallel on few cores.
    private struct Samples: Sendable {
        var photoJPEG: Data
        var logoPNG: Data
        var animatedWebP: Data
        var stillWebP: Data
        var flatPNG: Data
        var busyAlphaWebP: Data
    }

    private static let samples = Result { () throws -> Samples in
        Samples(
            photoJPEG: try JPEGEncoder(options: .init(quality: 90)).encode(
                SyntheticImages.photo(width: 1200, height: 800)),
            logoPNG: try PNGEncoder().encode(SyntheticImages.photo(width: 300, height: 200, alpha: true)),
            animatedWebP: try WebPEncoder().encode(SyntheticImages.animation(width: 64, height: 48, frameCount: 4)),
            stillWebP: try WebPEncoder().encode(SyntheticImages.photo(width: 200, height: 100)),
            flatPNG: try PNGEncoder().encode(Self.flatLogo),
            busyAlphaWebP: try WebPEncoder().encode(SyntheticImages.photo(width: 256, height: 256, alpha: true)))
    }

    /// 256×256: a transparent half and an opaque red half. Its PNG is tiny;
    /// a PNG of any lossy variant of it is not.
    static var flatLogo: Image {
        var image = Image(width: 256, height: 256, filledWith: (0, 0, 0, 0))
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            for offset in stride(from: pixels.count / 2, to: pixels.count, by: 4) {
                pixels[offset] = 200
                pixels[offset + 3] = 255
            }
        }
        return image
    }

    init() throws {
        folder = try TemporaryDirectory(prefix: "bridge")
        let samples = try Self.samples.get()
        photoJPEG = samples.photoJPEG
        try photoJPEG.write(to: folder.file("photo.jpg"))
        logoPNG = samples.logoPNG
        try logoPNG.write(to: folder.file("logo.png"))
        let animatedWebP = samples.animatedWebP
        let stillWebP = samples.stillWebP
        flatPNG = samples.flatPNG
        let flat = samples.flatPNG
        busyAlphaWebP = samples.busyAlphaWebP
        let busyAlphaWebP = samples.busyAlphaWebP
        let origin = try ImageOrigin(configuration: .init(root: folder.url.path))
        let photo = photoJPEG
        upstream = ScriptedDataLoader(
            serving: ClosureHTTPHandler { request in
                switch request.path {
                case "/index.html":
                    return .data(
                        Self.html, contentType: "text/html; charset=utf-8",
                        headers: ["Cache-Control": "max-age=60", "ETag": "\"page-1\"", "X-Site": "front"])
                case "/style.css": return .data(Self.css, contentType: "text/css", headers: ["ETag": "\"css-1\""])
                case "/app.js": return .data(Self.javascript, contentType: "application/javascript")
                case "/anim.gif":
                    return .data(Self.gif, contentType: "image/gif", headers: ["Cache-Control": "max-age=600"])
                case "/anim.webp": return .data(animatedWebP, contentType: "image/webp")
                case "/still.webp": return .data(stillWebP, contentType: "image/webp")
                case "/nt.jpg":
                    // The variant would be WebP, but the site forbids transforming it.
                    return request.query == nil
                        ? .data(photo, contentType: "image/jpeg", headers: ["Cache-Control": "public, no-transform"])
                        : .data(
                            stillWebP, contentType: "image/webp", headers: ["Cache-Control": "public, no-transform"])
                case "/flat.png":
                    // A CDN whose variant of a flat logo is a busy lossy WebP with alpha.
                    return request.query == nil
                        ? .data(flat, contentType: "image/png") : .data(busyAlphaWebP, contentType: "image/webp")
                case "/old":
                    return HTTPResponse(status: .found, headers: ["Location": "http://img.test/new?from=old"])
                case "/away":
                    return HTTPResponse(status: .movedPermanently, headers: ["Location": "https://elsewhere.test/x"])
                case "/hop":
                    return HTTPResponse(
                        status: .ok,
                        headers: [
                            "Content-Type": "text/plain", "Connection": "close, X-Secret", "X-Secret": "1",
                            "Keep-Alive": "timeout=5", "Transfer-Encoding": "chunked", "Upgrade": "h2c",
                            "Proxy-Authenticate": "Basic", "Trailer": "X-T", "X-End": "kept", "Via": "1.1 cdn",
                        ], body: .data(Data("hop\n".utf8)))
                case "/echo":
                    var echoed = "method=\(request.method)\n"
                    for field in request.headers { echoed += "\(field.name.lowercased()): \(field.value)\n" }
                    return HTTPResponse(
                        status: 201, headers: ["Content-Type": "text/plain"],
                        body: .data(Data(echoed.utf8) + request.body))
                default:
                    return await origin.handle(request)
                }
            })
    }

    /// The qiniu preset for `img.test` at width 750; `formats`, when given,
    /// replaces the rule's variant formats (`[.avif, .webp]` for AVIF first).
    func rewriter(preset: String = "qiniu", formats: [VariantFormat]? = nil) throws -> Rewriter {
        var rules = try RewritePreset.configuration(named: preset, host: "img.test", width: 750)
        if let formats { rules.rules[0].formats = formats }
        return try Rewriter(configuration: rules)
    }

    /// A fresh pipeline (its own negative cache) over the upstream, following
    /// redirects within `mode`'s rules as a bridge in that mode requires.
    func pipeline(
        loader: (any DataLoading)? = nil, mode: BridgeProxy.Configuration.Mode = .reverse(upstream: Self.site),
        formats: [VariantFormat]? = nil
    ) throws -> ImagePipeline {
        let rewriter = try rewriter(formats: formats)
        return ImagePipeline(
            configuration: .init(
                rewriter: rewriter, dataLoader: ViaStampingLoader(wrapping: loader ?? upstream),
                memoryCache: nil, requestTimeout: .seconds(60),
                redirectPolicy: mode.redirectPolicy(rewriter: rewriter)))
    }

    /// `http://img.test`, the reverse bridge's upstream by default.
    static let site = URL(string: "http://img.test")!

    /// A reverse-mode bridge for `http://img.test`; `formats` as in ``rewriter(preset:formats:)``.
    func bridge(
        upstreamURL: String = "http://img.test", loader: (any DataLoading)? = nil, policy: ClientPolicy? = nil,
        formats: [VariantFormat]? = nil, adjust: (inout BridgeProxy.Configuration) -> Void = { _ in }
    ) throws -> BridgeProxy {
        let mode = BridgeProxy.Configuration.Mode.reverse(upstream: URL(string: upstreamURL)!)
        var configuration = BridgeProxy.Configuration(
            mode: mode, pipeline: try pipeline(loader: loader, mode: mode, formats: formats),
            clientPolicy: policy, passthroughLoader: loader ?? upstream,
            limits: .init(upstreamTimeout: .seconds(60)))
        adjust(&configuration)
        return try BridgeProxy(configuration: configuration)
    }

    /// A forward-mode bridge that also allows `static.test`.
    func forwardBridge(allowing hosts: Set<String> = ["static.test"]) throws -> BridgeProxy {
        try BridgeProxy(
            configuration: .init(
                mode: .forward(allowedHosts: hosts), pipeline: try pipeline(mode: .forward(allowedHosts: hosts)),
                passthroughLoader: upstream))
    }
}

extension HTTPResponse {
    /// The body bytes of a response held in memory (empty otherwise).
    var bodyData: Data {
        switch body {
        case .data(let data): data
        case .bytes(let bytes): bytes.data
        case .empty, .file: Data()
        }
    }

    /// The body as UTF-8 text.
    var bodyText: String { String(decoding: bodyData, as: UTF8.self) }
}

extension HTTPRequest {
    /// A GET as a WebKit WebView without WebP would send it.
    static func webView(_ target: String, accept: String = BridgeFixture.noWebPAccept) -> HTTPRequest {
        HTTPRequest(target: target, headers: ["User-Agent": BridgeFixture.webKitUserAgent, "Accept": accept])
    }
}
