public import Foundation
import ImageOrigin
public import TestSupport
public import WebPBridge

/// A live image origin on 127.0.0.1, port 0: an `ImageOrigin` over a
/// temporary folder of generated images (`photo.jpg`, 1200×800; `logo.png`,
/// 300×200 with alpha; `anim.gif`), behind a ``FaultInjectingOrigin``; and
/// pipelines that fetch from it with the platform's default loader
/// (`CurlDataLoader` on Linux), rewriting with the Qiniu preset for
/// `127.0.0.1` — so `http://127.0.0.1:PORT/photo.jpg` becomes
/// `…/photo.jpg?imageView2/2/w/750/format/webp/ignore-error/1`, which the
/// origin understands.
///
/// Use ``with(_:)``: it always releases held requests and shuts the server
/// down.
public struct LiveOrigin: Sendable {
    public let folder: TemporaryDirectory
    public let upstream: FaultInjectingOrigin
    public let server: LoopbackServer
    /// The platform's default loader (`CurlDataLoader` on Linux), one per
    /// fixture so that its connections are this origin's alone.
    public let loader: any DataLoading

    /// Runs `body` with a started origin.
    public static func with<Result>(_ body: (LiveOrigin) async throws -> Result) async throws -> Result {
        let folder = try TemporaryDirectory(prefix: "live-origin")
        let samples = try Self.samples.get()
        try samples.photoJPEG.write(to: folder.file("photo.jpg"))
        try samples.logoPNG.write(to: folder.file("logo.png"))
        try samples.animationGIF.write(to: folder.file("anim.gif"))
        let upstream = FaultInjectingOrigin(origin: try ImageOrigin(configuration: .init(root: folder.url.path)))
        return try await LoopbackServer.with(upstream) { server in
            let origin = LiveOrigin(folder: folder, upstream: upstream, server: server, loader: DefaultDataLoader())
            defer { upstream.release() }
            return try await body(origin)
        }
    }

    /// The encoded originals, made once per test process (encoding is the
    /// costly part of a fixture, and suites run in parallel on few cores).
    private struct Samples: Sendable {
        public var photoJPEG: Data
        public var logoPNG: Data
        var animationGIF: Data
    }

    private static let samples = Result { () throws -> Samples in
        Samples(
            photoJPEG: try JPEGEncoder(options: .init(quality: 90)).encode(
                SyntheticImages.photo(width: 1200, height: 800)),
            logoPNG: try PNGEncoder().encode(SyntheticImages.photo(width: 300, height: 200, alpha: true)),
            animationGIF: try GIFEncoder().encode(SyntheticImages.animation(width: 48, height: 32, frameCount: 3)))
    }

    /// `http://127.0.0.1:PORT` + `target`; another name for the same
    /// server with `host` (`localhost`).
    public func url(_ target: String, host: String = "127.0.0.1") -> URL {
        URL(string: "http://\(host):\(server.port)\(target)")!
    }

    public var photo: URL { url("/photo.jpg") }
    public var logo: URL { url("/logo.png") }

    /// The WebP variant the pipeline fetches for `/name`.
    public static let variantQuery = "imageView2/2/w/750/format/webp"

    /// A pipeline over this origin. No bytes cache unless a test asks for
    /// one, so that every fetch shows at the server.
    /// - Parameters:
    ///   - host: The host the rule rewrites.
    ///   - timeout: The request timeout; by default 2 hours, beyond any run.
    ///     Tests hold a request until an event (every caller joined, one
    ///     cancelled) and then release it; a deadline that expired first
    ///     would turn the held variant into a fallback to the original (what
    ///     `make test-tsan` showed with 60 s, and a 0.5 s timeout reproduces
    ///     in a plain run). A test of the timeout passes its own.
    public func pipeline(
        host: String = "127.0.0.1", dataCache: (any DataCaching)? = nil, timeout: Duration = .seconds(2 * 60 * 60),
        redirectPolicy: RedirectPolicy = .anyHTTP, now: @escaping @Sendable () -> Date = { Date() }
    ) throws -> ImagePipeline {
        let rewriting = try RewritePreset.configuration(named: "qiniu", host: host, width: 750)
        return ImagePipeline(
            configuration: .init(
                rewriter: try Rewriter(configuration: rewriting), dataLoader: loader, dataCache: dataCache,
                memoryCache: MemoryCache(capacity: 64 << 20), requestTimeout: timeout, redirectPolicy: redirectPolicy,
                now: now))
    }
}
