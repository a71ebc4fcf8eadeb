import Foundation
import HTTPServer
import TestSupport
import WebPBridge

/// The upstream of the behaviour table: a small image site with a CDN's
/// WebP variants (a query naming `format/webp`), served on its own loopback
/// address so that no other suite's URL protocol binding claims its URLs.
/// Records every request target, so a row can count what went over the wire.
final class TableSite: HTTPHandler, Sendable {
    /// The loopback address the site listens on and the rules name.
    static let host = "127.0.0.7"

    struct Image: Sendable {
        var original: Data
        var originalType: String
        var variant: Data
        var variantHeaders: HTTPFieldList = [:]
        /// The AVIF variant, when the site makes one (else `format/avif` is a 404).
        var avif: Data?
    }

    let images: [String: Image]
    private let received = Lock<[String]>([])
    private let receivedSavingData = Lock<[String]>([])
    private let receivedWidths = Lock<[String]>([])

    init() throws {
        let photo = SyntheticImages.photo(width: 48, height: 32, seed: 3)
        let alpha = SyntheticImages.photo(width: 48, height: 32, seed: 4, alpha: true)
        let large = SyntheticImages.photo(width: 320, height: 240, seed: 5)
        let photoJPEG = try JPEGEncoder().encode(photo)
        let photoWebP = try WebPEncoder().encode(photo)
        let photoAVIF = try AVIFEncoder().encode(photo)
        images = [
            "/photo.jpg": Image(original: photoJPEG, originalType: "image/jpeg", variant: photoWebP, avif: photoAVIF),
            "/noavif.jpg": Image(original: photoJPEG, originalType: "image/jpeg", variant: photoWebP),
            "/alpha.png": Image(
                original: try PNGEncoder().encode(alpha), originalType: "image/png",
                variant: try WebPEncoder().encode(alpha)),
            "/notransform.jpg": Image(
                original: photoJPEG, originalType: "image/jpeg", variant: photoWebP,
                variantHeaders: ["Cache-Control": "max-age=60, no-transform"]),
            "/broken.jpg": Image(original: photoJPEG, originalType: "image/jpeg", variant: Self.undecodableWebP),
            "/large.jpg": Image(
                original: try JPEGEncoder().encode(large), originalType: "image/jpeg",
                variant: try WebPEncoder(options: .init(lossless: true)).encode(large)),
        ]
        // Above every other variant, below the large one's.
        transcodeCap = 2 * images.filter { $0.key != "/large.jpg" }.map(\.value.variant.count).max()!
    }

    /// The transcode cap of the rows.
    let transcodeCap: Int

    /// A WebP container the sniffer takes as complete whose VP8 data is zeros.
    static let undecodableWebP: Data = {
        let payload = Data(repeating: 0, count: 64)
        var chunk = Data("VP8 ".utf8)
        chunk.append(contentsOf: withUnsafeBytes(of: UInt32(payload.count).littleEndian) { Array($0) })
        chunk.append(payload)
        var data = Data("RIFF".utf8)
        data.append(contentsOf: withUnsafeBytes(of: UInt32(4 + chunk.count).littleEndian) { Array($0) })
        data.append(Data("WEBP".utf8))
        data.append(chunk)
        return data
    }()

    /// Every request target received, in order.
    var targets: [String] { received.withLock { $0 } }
    /// The targets of the requests that came with `Save-Data: on`, in order.
    var targetsSavingData: [String] { receivedSavingData.withLock { $0 } }
    /// The `Sec-CH-Width` of every request, in order (`-` for none).
    var widthHints: [String] { receivedWidths.withLock { $0 } }

    /// Requests received for `path`, variant or original.
    func requestCount(for path: String) -> Int {
        targets.filter { $0 == path || $0.hasPrefix(path + "?") }.count
    }

    /// A field every answer of the site's carries, end to end: relays keep it.
    static let endToEndField = "X-Table-Site"
    /// A field every answer names in `Connection`: hop-by-hop, relays drop it.
    static let hopByHopField = "X-Table-Hop"
    static let siteFields: HTTPFieldList = [endToEndField: "kept", "Connection": hopByHopField, hopByHopField: "1"]

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        received.withLock { $0.append(request.target) }
        if ClientHints.savesData(request.headers) { receivedSavingData.withLock { $0.append(request.target) } }
        receivedWidths.withLock { $0.append(request.headers[ClientHints.widthFieldName] ?? "-") }
        var response = answer(request)
        for field in Self.siteFields { response.headers.add(field) }
        return response
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        guard let image = images[request.path] else { return .text(.notFound, "no such image") }
        if request.target.contains("format/avif") {
            guard let avif = image.avif else { return .text(.notFound, "no AVIF variant") }
            return .data(avif, contentType: "image/avif", headers: ["Cache-Control": "max-age=60"])
        }
        if request.target.contains("format/webp") {
            var headers = image.variantHeaders
            if headers["Cache-Control"] == nil { headers["Cache-Control"] = "max-age=60" }
            return .data(image.variant, contentType: "image/webp", headers: headers)
        }
        return .data(image.original, contentType: image.originalType, headers: ["Cache-Control": "max-age=60"])
    }

    /// Serves the site on ``host``, port 0, for the length of `body`.
    static func with(_ body: (TableSite, URL) async throws -> Void) async throws {
        let site = try TableSite()
        let server = HTTPServer(configuration: .init(host: host, port: 0), handler: site)
        let endpoint = try await server.start()
        do {
            try await body(site, URL(string: "http://\(host):\(endpoint.port)")!)
            await server.shutdown()
        } catch {
            await server.shutdown()
            throw error
        }
    }
}
