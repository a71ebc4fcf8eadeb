import Foundation
import HTTPServer
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// `format/avif` and `--auto-format`: AVIF, WebP or the source by the
/// client's `Accept`, with `Vary: Accept` and one `ETag` per format.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct AVIFOriginTests {
    let fixture: OriginFixture

    init() throws { fixture = try OriginFixture() }

    @Test(arguments: ["imageView2/2/w/200/format/avif", "imageMogr2/thumbnail/200x/format/avif"])
    func formatAVIFMakesAnAVIFOfTheRequestedSize(fop: String) async throws {
        let origin = try fixture.origin()
        let response = await origin.get("/photo.jpg?\(fop)")
        #expect(response.status == .ok && response.headers["Content-Type"] == "image/avif")
        let info = try ImageInfo(response.bodyData)
        #expect(info.format == .avif && info.width == 200 && info.height == 150)
    }

    @Test(.enabled(if: ExternalTool.available("avifdec"), "avifdec (libavif-bin) is not installed"))
    func avifdecDecodesTheVariantAtTheRequestedSize() async throws {
        let origin = try fixture.origin()
        let response = await origin.get("/photo.jpg?imageView2/1/w/120/h/90/format/avif/q/70")
        #expect(response.headers["Content-Type"] == "image/avif")
        let folder = try TemporaryDirectory(prefix: "avifdec")
        try response.bodyData.write(to: folder.file("variant.avif"))
        let outcome = try ChildProcess.run(
            #require(ExternalTool.path("avifdec")), [folder.file("variant.avif").path, folder.file("out.png").path])
        try #require(outcome.exitStatus == 0, "avifdec: \(outcome.stderr)")
        let decoded = try PNGDecoder().decode(Data(contentsOf: folder.file("out.png")))
        #expect(decoded.width == 120 && decoded.height == 90)
    }

    @Test(arguments: [
        ("image/avif,image/webp,*/*", "image/avif"),
        (ClientProfile.chrome.imageAccept, "image/avif"),
        ("image/webp,*/*", "image/webp"),
        ("image/*", "image/jpeg"),
        ("*/*", "image/jpeg"),
        ("image/avif;q=0.5,image/webp", "image/webp"),
        ("image/avif;q=0,image/webp;q=0.9,*/*;q=0.1", "image/webp"),
        ("image/avif;q=0.4,image/webp;q=0.4,image/jpeg", "image/jpeg"),
        ("image/webp;q=0.7,image/avif;q=0.7,*/*;q=0.7", "image/avif"),
    ])
    func autoFormatNegotiatesByQValues(accept: String, contentType: String) async throws {
        let origin = try fixture.origin { $0.autoFormat = true }
        let response = await origin.get("/photo.jpg", headers: ["Accept": accept])
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == contentType, "\(accept)")
        #expect(response.headers["Vary"] == "Accept")
        #expect(ImageFormat.sniffIfImage(response.bodyData)?.mimeType == contentType)
    }

    @Test func autoWebPStaysWebPOnly() async throws {
        let origin = try fixture.origin { $0.autoWebP = true }
        let chrome = await origin.get("/photo.jpg", headers: ["Accept": "image/avif,image/webp,*/*"])
        #expect(chrome.headers["Content-Type"] == "image/webp")
        let avifOnly = await origin.get("/photo.jpg", headers: ["Accept": "image/avif,*/*"])
        #expect(avifOnly.headers["Content-Type"] == "image/jpeg")
    }

    @Test func eachFormatHasItsOwnETagAndGets304() async throws {
        let origin = try fixture.origin { $0.autoFormat = true }
        var tags: [String: String] = [:]
        for accept in ["image/avif,image/webp,*/*", "image/webp,*/*", "image/*"] {
            let first = await origin.get("/photo.jpg", headers: ["Accept": accept])
            let etag = try #require(first.headers["ETag"])
            tags[first.headers["Content-Type"] ?? "?"] = etag
            let again = await origin.get("/photo.jpg", headers: ["Accept": accept, "If-None-Match": etag])
            #expect(again.status == .notModified, "\(accept)")
            #expect(again.headers["Vary"] == "Accept" && again.headers["ETag"] == etag)
            #expect(again.bodyData.isEmpty)
        }
        #expect(Set(tags.values).count == 3, "\(tags)")
        // The AVIF's tag does not match for a WebP client.
        let webpClient = await origin.get(
            "/photo.jpg", headers: ["Accept": "image/webp,*/*", "If-None-Match": tags["image/avif"] ?? ""])
        #expect(webpClient.status == .ok && webpClient.headers["Content-Type"] == "image/webp")
    }

    @Test func repeatedRequestsAnswerFromTheMemoPerFormat() async throws {
        let origin = try fixture.origin { $0.autoFormat = true }
        for _ in 0..<2 {
            let avif = await origin.get("/photo.jpg", headers: ["Accept": "image/avif,*/*"])
            let webp = await origin.get("/photo.jpg", headers: ["Accept": "image/webp,*/*"])
            #expect(avif.headers["Content-Type"] == "image/avif" && webp.headers["Content-Type"] == "image/webp")
            #expect(avif.bodyData != webp.bodyData)
        }
    }

    @Test func theSourceIsServedWhenTheAVIFWouldBeLarger() async throws {
        let origin = try fixture.origin { $0.autoFormat = true }
        let response = await origin.get("/blocky.jpg", headers: ["Accept": "image/avif"])
        let source = try fixture.data("blocky.jpg")
        #expect(response.headers["Vary"] == "Accept")
        if response.headers["Content-Type"] == "image/jpeg" {
            #expect(response.bodyData == source)
        } else {
            #expect(response.bodyData.count < source.count, "an AVIF is served only when smaller")
        }
    }
}
