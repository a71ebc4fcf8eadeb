import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import ImageOrigin

/// The origin's ready answers: a repeated request is answered from them
/// exactly as the full path would, never after its file changed, and a
/// flood of distinct requests stays within their share of the budget.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct ReadyAnswersTests {
    let fixture: OriginFixture

    init() throws { fixture = try OriginFixture() }

    @Test func repeatedAnswersAreKeptAndMatchTheFullPath() async throws {
        let origin = try fixture.origin()
        let variant = "/photo.jpg?imageView2/2/w/200/format/webp"
        let made = await origin.get(variant)
        #expect(origin.readyAnswers.count == 0, "a variant being made is not a ready answer")
        for target in [variant, "/photo.jpg", "/notes.txt", "/sub%20dir/tall.jpg"] {
            let first = try #require(origin.immediateResponse(to: HTTPRequest(target: target)))
            let again = try #require(origin.immediateResponse(to: HTTPRequest(target: target)))
            #expect(first == again && first.status == .ok, "\(target)")
        }
        #expect(try #require(origin.immediateResponse(to: HTTPRequest(target: variant))) == made)
        #expect(origin.readyAnswers.count == 4)
        let metrics = origin.metrics.render()
        #expect(metrics.contains("webpbridge_origin_variant_cache_total{result=\"hit\"} 3"), "\(metrics)")
        #expect(metrics.contains("webpbridge_origin_requests_total{status=\"200\"} 10"))
    }

    @Test func withinTheRevalidationWindowAnAnswerIsGivenWithoutCheckingItsFile() throws {
        let clock = Lock(ContinuousClock.now)
        let answers = ReadyAnswers(capacityBytes: 1 << 20, revalidation: .seconds(1), now: { clock.withLock { $0 } })
        let path = fixture.root.appendingPathComponent("window.txt")
        try Data("first".utf8).write(to: path)
        let file = try fixture.origin().files.resolve("/window.txt").get()
        answers.remember(.text(.ok, "first"), file: file, isVariant: false, for: "/window.txt")
        clock.withLock { $0 += .milliseconds(999) }
        #expect(answers.answer(for: "/window.txt") != nil, "unchecked inside the window")
        clock.withLock { $0 += .milliseconds(1) }
        #expect(answers.answer(for: "/window.txt") != nil, "checked at the window's end, unchanged: kept")
        try Data("second, longer".utf8).write(to: path)
        clock.withLock { $0 += .milliseconds(999) }
        #expect(answers.answer(for: "/window.txt") != nil, "the check restarted the window: the stale rule")
        clock.withLock { $0 += .milliseconds(1) }
        #expect(answers.answer(for: "/window.txt") == nil, "checked again: changed, so dropped")
        #expect(answers.count == 0)
    }

    @Test func withoutAWindowEveryAnswerIsChecked() throws {
        let answers = ReadyAnswers(capacityBytes: 1 << 20)
        let path = fixture.root.appendingPathComponent("window.txt")
        try Data("first".utf8).write(to: path)
        let file = try fixture.origin().files.resolve("/window.txt").get()
        answers.remember(.text(.ok, "first"), file: file, isVariant: false, for: "k")
        #expect(answers.answer(for: "k") != nil)
        try Data("second, longer".utf8).write(to: path)
        #expect(answers.answer(for: "k") == nil)
    }

    @Test func conditionalAndRangeRequestsTakeTheFullPath() async throws {
        let origin = try fixture.origin()
        let whole = await origin.get("/notes.txt")
        let etag = try #require(whole.headers["ETag"])
        #expect(await origin.get("/notes.txt", headers: ["If-None-Match": etag]).status == .notModified)
        #expect(await origin.get("/notes.txt", headers: ["Range": "bytes=0-3"]).status == .partialContent)
        #expect(await origin.get("/notes.txt", method: .post).status == .methodNotAllowed)
    }

    @Test func negotiatedAnswersAreKeptPerAccept() async throws {
        let origin = try fixture.origin { $0.autoWebP = true }
        _ = await origin.get("/photo.jpg", headers: ["Accept": "image/webp"])
        let webp = try #require(
            origin.immediateResponse(to: HTTPRequest(target: "/photo.jpg", headers: ["Accept": "image/webp"])))
        let plain = try #require(
            origin.immediateResponse(to: HTTPRequest(target: "/photo.jpg", headers: ["Accept": "image/*"])))
        #expect(webp.headers["Content-Type"] == "image/webp" && plain.headers["Content-Type"] == "image/jpeg")
        let again = try #require(
            origin.immediateResponse(to: HTTPRequest(target: "/photo.jpg", headers: ["Accept": "image/webp"])))
        #expect(again == webp)
    }

    @Test func aChangedFileOrRetargetedLinkIsNeverAnsweredFromMemory() async throws {
        let origin = try fixture.origin()
        let path = fixture.root.appendingPathComponent("page.html")
        try Data("first".utf8).write(to: path)
        #expect(await origin.get("/page.html").bodyText == "first")
        #expect(await origin.get("/page.html").bodyText == "first")
        // Same size, new content, and a new inode: written beside it and renamed over it, as
        // deployments replace files (removing it first could hand the new file the old inode, and
        // within one tick of the file system's clock nothing a stat reads would differ).
        let replacement = fixture.root.appendingPathComponent(".page.html.new")
        try Data("again".utf8).write(to: replacement)
        #expect(rename(replacement.path, path.path) == 0)
        #expect(await origin.get("/page.html").bodyText == "again")
        try FileManager.default.removeItem(at: path)
        #expect(await origin.get("/page.html").status == .notFound)
        // A link answered once, then pointed out of the root.
        let link = fixture.root.appendingPathComponent("link.txt")
        try FileManager.default.createSymbolicLink(
            atPath: link.path, withDestinationPath: fixture.root.appendingPathComponent("notes.txt").path)
        #expect(await origin.get("/link.txt").status == .ok)
        #expect(await origin.get("/link.txt").status == .ok)
        try FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(
            atPath: link.path, withDestinationPath: fixture.parent.file("secret.txt").path)
        #expect(await origin.get("/link.txt").status == .forbidden)
    }

    @Test func aFloodOfDistinctRequestsStaysWithinTheShare() async throws {
        let budget = ImageOrigin.MemoryBudget(totalBytes: 1 << 20)
        let origin = try fixture.origin { $0.memoryBudget = budget }
        let padding = String(repeating: "p", count: 2_000)
        for index in 0..<2_000 {
            let response = origin.immediateResponse(to: HTTPRequest(target: "/notes.txt?v=\(padding)\(index)"))
            #expect(response?.status == .ok)
            #expect(origin.readyAnswers.totalBytes <= budget.readyAnswersBytes)
        }
        #expect(origin.readyAnswers.count > 0)
        #expect(origin.readyAnswers.count * 2_000 <= budget.readyAnswersBytes, "keys are charged")
        // A key past the store's bound is never kept.
        let long = "/notes.txt?v=" + String(repeating: "x", count: 5_000)
        let before = origin.readyAnswers.count
        #expect(origin.immediateResponse(to: HTTPRequest(target: long))?.status == .ok)
        #expect(origin.readyAnswers.count == before)
    }
}
