import Foundation
import HTTPServer
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// `immediateResponse(to:)` answers everything that needs no transformation
/// exactly as `handle(_:)` does, and leaves variants not yet made to it.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct ImmediateResponseTests {
    let fixture: OriginFixture

    init() throws { fixture = try OriginFixture() }

    @Test(arguments: [
        "/photo.jpg", "/sub%20dir/tall.jpg", "/inside.jpg", "/logo.png", "/nope.jpg", "/escape.jpg",
        "/%2e%2e/secret.txt", "/notes.txt", "/healthz", "/photo.jpg?imageView2/9/w/1", "/photo.jpg?v=3",
    ])
    func answersWithoutTransformingAsHandleDoes(target: String) async throws {
        let origin = try fixture.origin()
        let immediate = try #require(origin.immediateResponse(to: HTTPRequest(target: target)))
        let handled = await origin.get(target)
        #expect(immediate == handled)
    }

    @Test func variantsAreLeftToHandleUntilCached() async throws {
        let origin = try fixture.origin()
        let target = "/photo.jpg?imageView2/2/w/300/format/webp"
        #expect(origin.immediateResponse(to: HTTPRequest(target: target)) == nil)
        let made = await origin.get(target)
        #expect(made.status == .ok)
        let cached = try #require(origin.immediateResponse(to: HTTPRequest(target: target)))
        #expect(cached == made)
        let head = try #require(origin.immediateResponse(to: HTTPRequest(method: .head, target: target)))
        #expect(head.status == .ok && head.headers["ETag"] == made.headers["ETag"])
        let metrics = origin.metrics.render()
        #expect(metrics.contains("webpbridge_origin_variant_cache_total{result=\"miss\"} 1"))
        #expect(metrics.contains("webpbridge_origin_variant_cache_total{result=\"hit\"} 2"))
    }

    @Test func conditionalRequestsGet304Immediately() async throws {
        let origin = try fixture.origin { $0.autoWebP = true }
        // The WebP for this client is not made yet, but its tag is known.
        let first = await origin.get("/photo.jpg", headers: ["Accept": "image/webp"])
        let etag = try #require(first.headers["ETag"])
        let fresh = HTTPRequest(target: "/photo.jpg", headers: ["Accept": "image/webp", "If-None-Match": etag])
        let revalidated = try #require(origin.immediateResponse(to: fresh))
        #expect(revalidated.status == .notModified)
        #expect(revalidated.headers["Vary"] == "Accept")
        let other = try fixture.origin { $0.autoWebP = true }
        #expect(other.immediateResponse(to: fresh)?.status == .notModified, "304 needs no variant")
    }

    @Test func immediateAnswersAreCountedInMetrics() async throws {
        let origin = try fixture.origin()
        _ = origin.immediateResponse(to: HTTPRequest(target: "/photo.jpg"))
        _ = origin.immediateResponse(to: HTTPRequest(target: "/nope.jpg"))
        let metrics = try #require(origin.immediateResponse(to: HTTPRequest(target: "/metrics"))).bodyText
        #expect(metrics.contains("webpbridge_origin_requests_total{status=\"200\"} 1"))
        #expect(metrics.contains("webpbridge_origin_requests_total{status=\"404\"} 1"))
        let size = try fixture.data("photo.jpg").count
        #expect(metrics.contains("webpbridge_origin_bytes_served_total \(size + "no such file\n".utf8.count)"))
    }

    @Test func aReplacedFileIsSeenAtOnce() async throws {
        let origin = try fixture.origin()
        let before = try #require(origin.immediateResponse(to: HTTPRequest(target: "/swap.jpg")))
        #expect(before.status == .notFound)
        let path = fixture.root.appendingPathComponent("swap.jpg")
        try fixture.data("photo.jpg").write(to: path)
        let first = try #require(origin.immediateResponse(to: HTTPRequest(target: "/swap.jpg")))
        #expect(first.status == .ok && first.headers["Content-Type"] == "image/jpeg")
        // Replaced by a PNG (a new inode): new type and tag, no stale memory.
        try FileManager.default.removeItem(at: path)
        try fixture.data("logo.png").write(to: path)
        let second = try #require(origin.immediateResponse(to: HTTPRequest(target: "/swap.jpg")))
        #expect(second.headers["Content-Type"] == "image/png")
        #expect(second.headers["ETag"] != first.headers["ETag"])
        // A link retargeted out of the root is refused again.
        try FileManager.default.removeItem(at: path)
        try FileManager.default.createSymbolicLink(
            atPath: path.path, withDestinationPath: fixture.parent.file("secret.txt").path)
        #expect(origin.immediateResponse(to: HTTPRequest(target: "/swap.jpg"))?.status == .forbidden)
    }

    @Test func smallFilesComeFromMemoryUntilTheyChange() async throws {
        let origin = try fixture.origin()
        let first = await origin.get("/photo.jpg")
        guard case .bytes(let bytes) = first.body else {
            Issue.record("a small file is served from memory, got \(first.body)")
            return
        }
        #expect(bytes.data == (try fixture.data("photo.jpg")))
        // Rewritten in place (same inode): the new version is read, not the kept one.
        let path = fixture.root.appendingPathComponent("photo.jpg")
        let logo = try fixture.data("logo.png")
        let handle = try FileHandle(forWritingTo: path)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: logo)
        try handle.close()
        let later = Date().addingTimeInterval(5)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: path.path)
        let second = await origin.get("/photo.jpg")
        #expect(second.bodyData == logo)
        #expect(second.headers["Content-Type"] == "image/png")
        #expect(second.headers["ETag"] != first.headers["ETag"])
    }

    @Test func largeFilesAndADisabledCacheGoFromDisk() async throws {
        let small = try fixture.origin { $0.maxMemoryServedFileBytes = 100 }
        guard case .file = (await small.get("/photo.jpg")).body else {
            Issue.record("a file over the limit is sent from disk")
            return
        }
        let none = try fixture.origin { $0.sourceCacheBytes = 0 }
        let response = await none.get("/photo.jpg")
        guard case .file = response.body else {
            Issue.record("with no source cache, files are sent from disk")
            return
        }
        #expect(response.bodyData == (try fixture.data("photo.jpg")))
    }
}
