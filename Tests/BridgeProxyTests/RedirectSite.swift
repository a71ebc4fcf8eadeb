import BridgeProxy
import Foundation
import HTTPServer
import TestSupport
import WebPBridge

/// Three live servers on loopback for redirect tests: an allowed upstream
/// on 127.0.0.1 whose images and pages redirect elsewhere, a server on
/// 127.0.0.2 that no rule names (`secret`), and one on another port of
/// 127.0.0.1 (`otherPort`). The two targets count every request they get:
/// a bridge that keeps to its rules leaves both at 0.
struct RedirectSite {
    let upstream: LoopbackServer
    let secret: LoopbackServer
    let otherPort: LoopbackServer
    let photoJPEG: Data

    /// Runs `body` with the three servers started, and stops them afterwards
    /// (whether `body` or a later start threw or not).
    static func with<Result>(_ body: (RedirectSite) async throws -> Result) async throws -> Result {
        let photo = try JPEGEncoder(options: .init(quality: 85)).encode(SyntheticImages.photo(width: 64, height: 48))
        return try await LoopbackServer.with(target(photo: photo), host: "127.0.0.2") { secret in
            try await LoopbackServer.with(target(photo: photo)) { otherPort in
                let handler = upstream(
                    secretBase: "http://127.0.0.2:\(secret.port)", otherBase: "http://127.0.0.1:\(otherPort.port)",
                    photo: photo)
                return try await LoopbackServer.with(handler) { upstream in
                    try await body(
                        RedirectSite(upstream: upstream, secret: secret, otherPort: otherPort, photoJPEG: photo))
                }
            }
        }
    }

    /// The allowed upstream: images and pages that redirect to the two
    /// targets, one redirect inside the site, and the photo it leads to.
    static func upstream(secretBase: String, otherBase: String, photo: Data) -> some HTTPHandler {
        ClosureHTTPHandler { request in
            func redirect(_ status: Int, _ location: String) -> HTTPResponse {
                HTTPResponse(status: HTTPStatus(code: status), headers: ["Location": location])
            }
            switch request.path {
            case "/host302.jpg": return redirect(302, secretBase + "/secret.jpg")
            case "/host307.jpg": return redirect(307, secretBase + "/secret.jpg")
            case "/port302.jpg": return redirect(302, otherBase + "/image.jpg")
            case "/port307.jpg": return redirect(307, otherBase + "/image.jpg")
            case "/text302.jpg": return redirect(302, secretBase + "/secret.txt")
            case "/page302.html": return redirect(302, secretBase + "/secret.html")
            case "/page307.html": return redirect(307, otherBase + "/page.html")
            case "/inside.jpg": return redirect(302, "/real/photo.jpg")
            case "/real/photo.jpg": return .data(photo, contentType: "image/jpeg")
            default: return .text(.notFound, "no such thing")
            }
        }
    }

    /// A target no rule names: a JPEG for every request (text for `.txt`
    /// and `.html`); the test counts what reached it.
    static func target(photo: Data) -> some HTTPHandler {
        ClosureHTTPHandler { request in
            if request.path.hasSuffix(".txt") || request.path.hasSuffix(".html") {
                return .text(.ok, "internal only")
            }
            return .data(photo, contentType: "image/jpeg")
        }
    }

    /// Requests that reached the servers the rules do not name.
    var escapedRequests: Int { secret.requestCount + otherPort.requestCount }

    /// The qiniu preset for `127.0.0.1`.
    static func rewriter() throws -> Rewriter {
        try Rewriter(configuration: RewritePreset.configuration(named: "qiniu", host: "127.0.0.1", width: 750))
    }

    /// A bridge in `mode` with the platform's real loader, built as the
    /// command builds it.
    static func bridge(_ mode: BridgeProxy.Configuration.Mode) throws -> BridgeProxy {
        let rewriter = try rewriter()
        // Its own loader: the process-wide one keeps connections to servers of
        // other tests, whose ephemeral ports these servers may reuse.
        let loader = DefaultDataLoader()
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: rewriter, dataLoader: ViaStampingLoader(wrapping: loader), memoryCache: nil,
                requestTimeout: .seconds(60), redirectPolicy: mode.redirectPolicy(rewriter: rewriter)))
        return try BridgeProxy(
            configuration: .init(
                mode: mode, pipeline: pipeline, passthroughLoader: loader, limits: .init(upstreamTimeout: .seconds(60)))
        )
    }
}
