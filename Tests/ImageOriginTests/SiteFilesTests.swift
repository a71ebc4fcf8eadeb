import Foundation
import HTTPServer
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// The origin hosts a whole site: the files that are not images are served
/// as they are, typed by extension, with validators, `304`s and byte ranges.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct SiteFilesTests {
    let fixture: OriginFixture
    /// 1,000 bytes, every one telling its offset apart from its neighbours'.
    let script = Data((0..<1_000).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) })

    init() throws {
        fixture = try OriginFixture()
        let root = fixture.root
        try Data("<!doctype html><title>front page</title>".utf8).write(to: root.appendingPathComponent("index.html"))
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("static"), withIntermediateDirectories: true)
        try Data("body { margin: 0 }".utf8).write(to: root.appendingPathComponent("static/site.css"))
        try script.write(to: root.appendingPathComponent("static/app.js"))
        try Data("<html>not a JPEG</html>".utf8).write(to: root.appendingPathComponent("fake.jpg"))
        try Data().write(to: root.appendingPathComponent("empty.txt"))
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("escape.css").path,
            withDestinationPath: fixture.parent.file("secret.txt").path)
    }

    @Test(arguments: [
        ("index.html", "text/html; charset=utf-8"), ("a.HTM", "text/html; charset=utf-8"),
        ("site.css", "text/css; charset=utf-8"), ("app.js", "text/javascript; charset=utf-8"),
        ("module.mjs", "text/javascript; charset=utf-8"), ("data.json", "application/json"),
        ("icon.svg", "image/svg+xml"), ("notes.txt", "text/plain; charset=utf-8"), ("feed.xml", "application/xml"),
        ("favicon.ico", "image/x-icon"), ("font.woff", "font/woff"), ("font.woff2", "font/woff2"),
        ("site.webmanifest", "application/manifest+json"), ("app.js.map", "application/json"),
        ("archive.tar.xz", "application/octet-stream"), ("README", "application/octet-stream"),
        (".htaccess", "application/octet-stream"), ("fake.jpg", "application/octet-stream"),
        ("/static.css/file", "application/octet-stream"),
    ])
    func typesByExtension(name: String, type: String) async throws {
        #expect(SiteMediaTypes.type(forPath: name) == type)
    }

    @Test(arguments: [
        ("/index.html", "text/html; charset=utf-8"), ("/", "text/html; charset=utf-8"),
        ("/static/site.css", "text/css; charset=utf-8"), ("/static/app.js", "text/javascript; charset=utf-8"),
        ("/notes.txt", "text/plain; charset=utf-8"), ("/fake.jpg", "application/octet-stream"),
    ])
    func filesAreServedAsTheyAre(target: String, type: String) async throws {
        let origin = try fixture.origin()
        let response = await origin.get(target)
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == type)
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(response.headers["Accept-Ranges"] == "bytes")
        #expect(response.headers["Cache-Control"] == "no-cache")
        #expect(response.headers["ETag"]?.hasPrefix("\"") == true)
        #expect(response.headers["Last-Modified"]?.hasSuffix(" GMT") == true)
        let name = target.hasSuffix("/") ? target + "index.html" : target
        #expect(response.bodyData == (try fixture.data(String(name.dropFirst()))))
        #expect(origin.immediateResponse(to: HTTPRequest(target: target)) == response)
    }

    /// `ignore-error/1` answers as the plain URL would, for every failure:
    /// a file that is not an image (it was 415), and a folder's page after
    /// a processing query the parser refuses (it was 404).
    @Test(arguments: [
        ("/fake.jpg?imageView2/2/w/10/ignore-error/1", "fake.jpg"),
        ("/notes.txt?imageView2/2/w/10/ignore-error/1", "notes.txt"), ("/?foo/ignore-error/1", "index.html"),
        ("/static/app.js?foo/ignore-error/1", "static/app.js"),
    ])
    func ignoreErrorServesTheFileAsItIs(target: String, file: String) async throws {
        let response = await (try fixture.origin()).get(target)
        #expect(response.status == .ok)
        #expect(response.bodyData == (try fixture.data(file)))
    }

    @Test func headAnswersAsGetWithoutABody() async throws {
        let origin = try fixture.origin()
        let get = await origin.get("/static/app.js")
        let head = await origin.get("/static/app.js", method: .head)
        #expect(head.status == .ok && head.headers == get.headers)
        // The server sends no body for HEAD; a Range is not applied to it.
        let ranged = await origin.get("/static/app.js", method: .head, headers: ["Range": "bytes=0-99"])
        #expect(ranged.status == .ok && ranged.headers["Content-Range"] == nil)
    }

    @Test func conditionalRequestsGet304() async throws {
        let origin = try fixture.origin()
        let first = await origin.get("/static/site.css")
        let etag = try #require(first.headers["ETag"])
        let modified = try #require(first.headers["Last-Modified"])
        let byTag = await origin.get("/static/site.css", headers: ["If-None-Match": etag])
        #expect(byTag.status == .notModified && byTag.bodyData.isEmpty && byTag.headers["ETag"] == etag)
        #expect(await origin.get("/static/site.css", headers: ["If-None-Match": "W/\(etag)"]).status == .notModified)
        #expect(await origin.get("/static/site.css", headers: ["If-Modified-Since": modified]).status == .notModified)
        #expect(await origin.get("/static/site.css", headers: ["If-None-Match": "\"other\""]).status == .ok)
        let head = await origin.get("/static/site.css", method: .head, headers: ["If-None-Match": etag])
        #expect(head.status == .notModified)
        // If-None-Match wins over If-Modified-Since.
        let both = await origin.get(
            "/static/site.css", headers: ["If-None-Match": "\"other\"", "If-Modified-Since": modified])
        #expect(both.status == .ok)
    }

    @Test(arguments: [
        ("bytes=0-99", 0, 100), ("bytes=990-", 990, 10), ("bytes=-100", 900, 100), ("bytes=-5000", 0, 1_000),
        ("bytes=500-500", 500, 1), ("bytes=900-99999", 900, 100),
    ])
    func aRangeGets206WithThoseBytes(range: String, offset: Int, count: Int) async throws {
        let origin = try fixture.origin()
        let response = await origin.get("/static/app.js", headers: ["Range": range])
        #expect(response.status == .partialContent)
        #expect(response.headers["Content-Range"] == "bytes \(offset)-\(offset + count - 1)/1000")
        #expect(response.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(response.bodyData == script.subdata(in: offset..<(offset + count)))
    }

    @Test func imagesServedAsTheyAreTakeRangesToo() async throws {
        let origin = try fixture.origin()
        let response = await origin.get("/photo.jpg", headers: ["Range": "bytes=0-99"])
        #expect(response.status == .partialContent && response.headers["Content-Type"] == "image/jpeg")
        #expect(response.bodyData == (try fixture.data("photo.jpg")).prefix(100))
    }

    @Test func anUnsatisfiableRangeGets416WithTheLength() async throws {
        let origin = try fixture.origin()
        for range in ["bytes=1000-", "bytes=5000-6000", "bytes=-0"] {
            let response = await origin.get("/static/app.js", headers: ["Range": range])
            #expect(response.status == .rangeNotSatisfiable, "\(range)")
            #expect(response.headers["Content-Range"] == "bytes */1000")
        }
        let empty = await origin.get("/empty.txt", headers: ["Range": "bytes=0-"])
        #expect(empty.status == .rangeNotSatisfiable && empty.headers["Content-Range"] == "bytes */0")
    }

    @Test func severalRangesOrAMalformedOneGetTheWholeFile() async throws {
        let origin = try fixture.origin()
        for range in ["bytes=0-9,20-29", "bytes=9-0", "lines=1-2", "bytes=x-"] {
            let response = await origin.get("/static/app.js", headers: ["Range": range])
            #expect(response.status == .ok && response.bodyData == script, "\(range)")
        }
    }

    @Test func ifRangeAppliesTheRangeOnlyToTheSameVersion() async throws {
        let origin = try fixture.origin()
        let whole = await origin.get("/static/app.js")
        let etag = try #require(whole.headers["ETag"])
        let modified = try #require(whole.headers["Last-Modified"])
        for (condition, status) in [
            (etag, HTTPStatus.partialContent), (modified, .partialContent), ("\"old\"", .ok), ("W/\(etag)", .ok),
            ("Thu, 01 Jan 1998 00:00:00 GMT", .ok), ("garbage", .ok),
        ] {
            let response = await origin.get("/static/app.js", headers: ["Range": "bytes=0-99", "If-Range": condition])
            #expect(response.status == status, "If-Range: \(condition)")
        }
    }

    @Test func pathSafetyHoldsForEveryFile() async throws {
        let origin = try fixture.origin()
        for target in ["/../secret.txt", "/%2e%2e/secret.txt", "/static/..%2F..%2Fsecret.txt", "/escape.css"] {
            #expect(await origin.get(target).status == .forbidden, "\(target)")
        }
        #expect(await origin.get("/static/").status == .notFound, "a folder without index.html")
        #expect(await origin.get("/static").status == .notFound, "a folder is not a file")
        #expect(await origin.get("/missing.css").status == .notFound)
    }

    @Test func processingANonImageIs415() async throws {
        let origin = try fixture.origin()
        #expect(await origin.get("/static/site.css?imageView2/2/w/100").status == .unsupportedMediaType)
    }

    @Test func aChangedFileGetsANewTagAndItsNewBytes() async throws {
        let origin = try fixture.origin()
        let path = fixture.root.appendingPathComponent("static/site.css")
        let before = await origin.get("/static/site.css")
        try FileManager.default.removeItem(at: path)
        try Data("body { margin: 1em }".utf8).write(to: path)
        let after = await origin.get("/static/site.css")
        #expect(after.headers["ETag"] != before.headers["ETag"])
        #expect(after.bodyText == "body { margin: 1em }")
    }
}
