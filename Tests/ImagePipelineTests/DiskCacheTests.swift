import Foundation
import TestSupport
import TestTraits
import Testing

@testable import WebPBridge

/// A clock that moves only when told to, one second per reading by default,
/// so every use has its own time and LRU order is deterministic.
final class TestClock: Sendable {
    private let current: Lock<Date>
    private let step: TimeInterval

    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000), step: TimeInterval = 1) {
        current = Lock(start)
        self.step = step
    }

    func now() -> Date {
        current.withLock { date in
            date = date.addingTimeInterval(step)
            return date
        }
    }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

@Suite(.timeLimit(.suiteBound)) struct DiskCacheTests {
    let folder: TemporaryDirectory
    let clock = TestClock()

    init() throws {
        folder = try TemporaryDirectory(prefix: "disk-cache")
    }

    func open(capacity: Int = DiskCache.Configuration.defaultCapacity, maxEntrySize: Int? = nil) throws -> DiskCache {
        let clock = self.clock
        return try DiskCache(
            folder: folder.url, configuration: .init(capacity: capacity, maxEntrySize: maxEntrySize),
            clock: { clock.now() })
    }

    static func response(
        _ key: String, bytes: Int = 1000, headers: HTTPFieldList = ["Content-Type": "image/webp"]
    ) -> DataResponse {
        DataResponse(url: URL(string: key)!, statusCode: 200, headers: headers, body: body(key, bytes))
    }

    static func body(_ key: String, _ count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ key.utf8.count) })
    }

    func files(withSuffix suffix: String = ".entry") throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder.url, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasSuffix(suffix) }
    }

    func temporaryFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".tmp-") }
    }

    // MARK: Round trip and policy

    @Test func roundTripKeepsBytesAndMetadata() throws {
        let cache = try open()
        let key = "http://img.example.com/a.jpg?imageView2/2/w/750/format/webp"
        let now = clock.now()
        let response = DataResponse(
            url: URL(string: "http://cdn.example.com/final.webp")!, statusCode: 200,
            headers: [
                "Content-Type": "image/webp", "ETag": "\"abc\"", "Last-Modified": "Mon, 13 Nov 2023 10:00:00 GMT",
                "Cache-Control": "public, max-age=600",
            ], body: Self.body(key, 123_457))
        #expect(cache.store(response, for: key, now: now))
        let entry = try #require(cache.entry(for: key))
        #expect(entry.data == response.body)
        #expect(entry.key == key)
        #expect(entry.url == response.url)
        #expect(entry.statusCode == 200)
        #expect(entry.contentType == "image/webp")
        #expect(entry.etag == "\"abc\"")
        #expect(entry.lastModified == "Mon, 13 Nov 2023 10:00:00 GMT")
        #expect(entry.cacheControl == "public, max-age=600")
        #expect(entry.storedAt == now)
        #expect(entry.expiresAt == now.addingTimeInterval(600))
        #expect(entry.isFresh(now: now.addingTimeInterval(599)))
        #expect(!entry.isFresh(now: now.addingTimeInterval(601)))
        #expect(cache.count == 1)
        let onDisk = try files().map { try fileSize($0) }.reduce(0, +)
        #expect(cache.totalBytes == onDisk)
        #expect(cache.totalBytes > 123_457)
    }

    @Test func emptyBodyRoundTrips() throws {
        let cache = try open()
        #expect(cache.store(Self.response("http://a/empty", bytes: 0), for: "k", now: clock.now()))
        #expect(try #require(cache.entry(for: "k")).data.isEmpty)
    }

    @Test func missIsNil() throws {
        #expect(try open().entry(for: "never stored") == nil)
    }

    @Test func noStoreIsNotStoredAndDropsTheOldEntry() throws {
        let cache = try open()
        #expect(cache.store(Self.response("http://a/1"), for: "k", now: clock.now()))
        let refused = Self.response("http://a/1", headers: ["Cache-Control": "no-store"])
        #expect(!cache.store(refused, for: "k", now: clock.now()))
        #expect(cache.entry(for: "k") == nil)
        #expect(try files().isEmpty)
        #expect(cache.totalBytes == 0)
    }

    @Test func errorResponsesAreNotStored() throws {
        let cache = try open()
        let notFound = DataResponse(
            url: URL(string: "http://a/1")!, statusCode: 404, headers: [:], body: Data("no".utf8))
        #expect(!cache.store(notFound, for: "k", now: clock.now()))
        #expect(cache.entry(for: "k") == nil)
    }

    @Test func defaultLifetimeIsSevenDays() throws {
        let cache = try open()
        let now = clock.now()
        cache.store(Self.response("http://a/1"), for: "k", now: now)
        let entry = try #require(cache.entry(for: "k"))
        #expect(entry.expiresAt == now.addingTimeInterval(7 * 24 * 3600))
        #expect(entry.isFresh(now: now.addingTimeInterval(6 * 24 * 3600)))
        #expect(!entry.isFresh(now: now.addingTimeInterval(8 * 24 * 3600)))
    }

    @Test func expiresIsHonoured() throws {
        let cache = try open()
        let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
        let headers: HTTPFieldList = ["Expires": "Tue, 14 Nov 2023 23:13:20 GMT", "ETag": "\"e\""]
        cache.store(Self.response("http://a/1", headers: headers), for: "k", now: now)
        let entry = try #require(cache.entry(for: "k"))
        #expect(entry.expiresAt == now.addingTimeInterval(3600))
        #expect(!entry.isFresh(now: now.addingTimeInterval(3601)))
    }

    // MARK: Revalidation

    @Test func notModifiedExtendsFreshnessAndSurvivesReopen() throws {
        let cache = try open()
        let stored = clock.now()
        let headers: HTTPFieldList = ["Cache-Control": "max-age=60", "ETag": "\"v1\"", "Content-Type": "image/webp"]
        cache.store(Self.response("http://a/1", bytes: 5000, headers: headers), for: "k", now: stored)
        let later = stored.addingTimeInterval(3600)
        let stale = try #require(cache.entry(for: "k"))
        #expect(!stale.isFresh(now: later))
        #expect(CachePolicy().revalidationHeaders(for: stale) == ["If-None-Match": "\"v1\""])

        let notModified = DataResponse(
            url: URL(string: "http://a/1")!, statusCode: 304,
            headers: ["Cache-Control": "max-age=600", "ETag": "\"v1\""],
            body: Data())
        let refreshed = try #require(cache.refresh("k", with: notModified, now: later))
        #expect(refreshed.isFresh(now: later.addingTimeInterval(599)))
        #expect(refreshed.expiresAt == later.addingTimeInterval(600))

        let reopened = try open()
        let reread = try #require(reopened.entry(for: "k"))
        #expect(reread.expiresAt == later.addingTimeInterval(600))
        #expect(reread.storedAt == later)
        #expect(reread.data == Self.body("http://a/1", 5000))
        #expect(reread.contentType == "image/webp")
        #expect(reopened.count == 1)
        #expect(try temporaryFiles().isEmpty)
    }

    @Test func notModifiedForAnotherRepresentationRemovesTheEntry() throws {
        let cache = try open()
        cache.store(Self.response("http://a/1", headers: ["ETag": "\"v1\""]), for: "k", now: clock.now())
        let notModified = DataResponse(
            url: URL(string: "http://a/1")!, statusCode: 304, headers: ["ETag": "\"v2\""], body: Data())
        #expect(cache.refresh("k", with: notModified, now: clock.now()) == nil)
        #expect(cache.entry(for: "k") == nil)
        #expect(cache.refresh("missing", with: notModified, now: clock.now()) == nil)
    }

    // MARK: Size bound and LRU

    @Test func leastRecentlyUsedIsEvictedFirst() throws {
        let probe = try open()
        probe.store(Self.response("http://a/probe", bytes: 10_000), for: "probe", now: clock.now())
        let entrySize = probe.totalBytes
        probe.removeAll()

        // Room for three entries, not four.
        let cache = try open(capacity: entrySize * 3 + entrySize / 2)
        for key in ["a", "b", "c"] {
            #expect(cache.store(Self.response("http://a/\(key)", bytes: 10_000), for: key, now: clock.now()))
        }
        _ = cache.entry(for: "a")  // now b is the least recently used
        #expect(cache.store(Self.response("http://a/d", bytes: 10_000), for: "d", now: clock.now()))
        #expect(cache.entry(for: "b") == nil)
        #expect(cache.entry(for: "a") != nil)
        #expect(cache.entry(for: "c") != nil)
        #expect(cache.entry(for: "d") != nil)
        #expect(cache.count == 3)
        #expect(cache.totalBytes <= cache.configuration.capacity)
        #expect(try files().count == 3)
        #expect(cache.sweep() == 0)  // already within the bound
    }

    @Test func useOrderRoughlySurvivesARestart() throws {
        let probe = try open()
        probe.store(Self.response("http://a/probe", bytes: 10_000), for: "probe", now: clock.now())
        let entrySize = probe.totalBytes
        probe.removeAll()
        let capacity = entrySize * 3 + entrySize / 2

        let first = try open(capacity: capacity)
        for key in ["a", "b", "c"] {
            first.store(Self.response("http://a/\(key)", bytes: 10_000), for: key, now: clock.now())
        }
        _ = first.entry(for: "a")  // its file's modification date moves past b's and c's

        let second = try open(capacity: capacity)
        #expect(second.count == 3)
        second.store(Self.response("http://a/d", bytes: 10_000), for: "d", now: clock.now())
        #expect(second.entry(for: "b") == nil)
        #expect(second.entry(for: "a") != nil)
        #expect(second.entry(for: "c") != nil)
    }

    @Test func reopeningWithASmallerCapacitySweeps() throws {
        let big = try open()
        for index in 0..<10 {
            big.store(Self.response("http://a/\(index)", bytes: 10_000), for: "\(index)", now: clock.now())
        }
        let small = try open(capacity: big.totalBytes / 2)
        #expect(small.totalBytes <= small.configuration.capacity)
        #expect(small.count < 10)
        #expect(small.entry(for: "9") != nil)  // the newest stay
        #expect(small.entry(for: "0") == nil)
    }

    @Test func oversizedEntriesAreRefused() throws {
        let cache = try open(capacity: 50_000, maxEntrySize: 20_000)
        #expect(!cache.store(Self.response("http://a/big", bytes: 30_000), for: "big", now: clock.now()))
        #expect(cache.store(Self.response("http://a/ok", bytes: 10_000), for: "ok", now: clock.now()))
        let noLimit = try open(capacity: 50_000)
        #expect(!noLimit.store(Self.response("http://a/huge", bytes: 60_000), for: "huge", now: clock.now()))
        #expect(noLimit.entry(for: "ok") != nil)
        // A new version too large to keep still supersedes the old one.
        #expect(!noLimit.store(Self.response("http://a/ok", bytes: 60_000), for: "ok", now: clock.now()))
        #expect(noLimit.entry(for: "ok") == nil)
        #expect(try temporaryFiles().isEmpty)
    }

    @Test func removeAndRemoveAll() throws {
        let cache = try open()
        for key in ["a", "b", "c"] { cache.store(Self.response("http://a/\(key)"), for: key, now: clock.now()) }
        cache.remove("b")
        #expect(cache.entry(for: "b") == nil)
        #expect(cache.count == 2)
        cache.removeAll()
        #expect(cache.entry(for: "a") == nil)
        #expect(cache.count == 0)
        #expect(cache.totalBytes == 0)
        #expect(try files().isEmpty)
    }

    // MARK: Reopen and damage

    @Test func aNewInstanceFindsTheEntries() throws {
        let first = try open()
        for index in 0..<20 {
            first.store(Self.response("http://a/\(index)", bytes: 1000 + index), for: "key \(index)", now: clock.now())
        }
        let second = try open()
        #expect(second.count == 20)
        #expect(second.totalBytes == first.totalBytes)
        for index in 0..<20 {
            #expect(second.entry(for: "key \(index)")?.data == Self.body("http://a/\(index)", 1000 + index))
        }
    }

    enum Damage: String, CaseIterable, Sendable {
        case truncated, truncatedToHeader, extended, flippedBodyByte, flippedMetadataByte, flippedHeaderByte
        case garbage, empty

        func apply(to url: URL) throws {
            var bytes = [UInt8](try Data(contentsOf: url))
            switch self {
            case .truncated: bytes.removeLast(bytes.count / 3)
            case .truncatedToHeader: bytes.removeLast(bytes.count - 28)
            case .extended: bytes += [0, 0, 0, 0]
            case .flippedBodyByte: bytes[bytes.count - 500] ^= 0x01
            case .flippedMetadataByte: bytes[40] ^= 0x20
            case .flippedHeaderByte: bytes[13] ^= 0x01
            case .garbage: bytes = (0..<bytes.count).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            case .empty: bytes = []
            }
            try Data(bytes).write(to: url)
        }
    }

    @Test(arguments: Damage.allCases)
    func damagedEntryIsAMissAndIsDeleted(damage: Damage) throws {
        let cache = try open()
        cache.store(Self.response("http://a/1", bytes: 4000), for: "k", now: clock.now())
        cache.store(Self.response("http://a/2", bytes: 4000), for: "other", now: clock.now())
        let file = folder.url.appendingPathComponent(DiskCache.fileName(for: "k"))
        try damage.apply(to: file)

        // Caught on read by the instance that has it indexed...
        #expect(cache.entry(for: "k") == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(cache.count == 1)
        #expect(cache.entry(for: "other")?.data == Self.body("http://a/2", 4000))
    }

    @Test(arguments: Damage.allCases)
    func damagedEntryIsCaughtAfterReopen(damage: Damage) throws {
        let cache = try open()
        cache.store(Self.response("http://a/1", bytes: 4000), for: "k", now: clock.now())
        cache.store(Self.response("http://a/2", bytes: 4000), for: "other", now: clock.now())
        let file = folder.url.appendingPathComponent(DiskCache.fileName(for: "k"))
        try damage.apply(to: file)

        // ...and by a new one, at open (header, length) or on read (checksum).
        let reopened = try open()
        #expect(reopened.entry(for: "k") == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(reopened.count == 1)
        let otherSize = try fileSize(folder.url.appendingPathComponent(DiskCache.fileName(for: "other")))
        #expect(reopened.totalBytes == otherSize)
        #expect(reopened.entry(for: "other")?.data == Self.body("http://a/2", 4000))
    }

    @Test func leftoverTemporaryFilesAreDeletedAtOpen() throws {
        let cache = try open()
        cache.store(Self.response("http://a/1"), for: "k", now: clock.now())
        try Data(repeating: 7, count: 3000).write(to: folder.file(".tmp-\(UUID().uuidString)"))
        try Data().write(to: folder.file(".tmp-empty"))
        try Data("not ours".utf8).write(to: folder.file("README"))
        let reopened = try open()
        #expect(try temporaryFiles().isEmpty)
        #expect(reopened.count == 1)
        #expect(reopened.entry(for: "k") != nil)
        #expect(FileManager.default.fileExists(atPath: folder.file("README").path))  // not the cache's to delete
    }

    @Test func unusableFolderIsAReadableError() throws {
        let file = folder.file("a-file")
        try Data("x".utf8).write(to: file)
        let error = try #require(throws: DiskCacheError.self) {
            try DiskCache(folder: file.appendingPathComponent("cache"))
        }
        #expect(error.description.contains("cannot create the disk cache folder"))
        #expect(throws: DiskCacheError.self) {
            try DiskCache(folder: folder.url, configuration: .init(capacity: -1))
        }
    }

    // MARK: Keys

    @Test func twoKeysOnOneFileNeverServeEachOther() throws {
        // Force the collision the 128-bit names make astronomically unlikely.
        let cache = try DiskCache(
            folder: folder.url, configuration: .init(), clock: { Date() }, fileName: { _ in "same.entry" })
        cache.store(Self.response("http://a/1", bytes: 100), for: "first", now: Date())
        #expect(cache.entry(for: "first")?.data == Self.body("http://a/1", 100))
        cache.store(Self.response("http://a/2", bytes: 200), for: "second", now: Date())
        #expect(cache.entry(for: "first") == nil)
        #expect(cache.entry(for: "second")?.data == Self.body("http://a/2", 200))
        #expect(cache.entry(for: "second")?.key == "second")
    }

    @Test func similarKeysGetTheirOwnEntries() throws {
        let cache = try open()
        let keys =
            (0..<200).map { "http://img.example.com/p/\($0).jpg?imageView2/2/w/750/format/webp" }
            + ["", " ", "a", "A", "http://img.example.com/p/1.jpg?imageView2/2/w/751/format/webp"]
        #expect(Set(keys.map(DiskCache.fileName(for:))).count == keys.count)
        for (index, key) in keys.enumerated() {
            cache.store(Self.response("http://a/\(index)", bytes: 50 + index), for: key, now: clock.now())
        }
        for (index, key) in keys.enumerated() {
            let entry = try #require(cache.entry(for: key))
            #expect(entry.key == key)
            #expect(entry.data == Self.body("http://a/\(index)", 50 + index))
        }
    }

    // MARK: Concurrency

    @Test func concurrentStoresAndReadsStayConsistent() async throws {
        let cache = try open(capacity: 400_000)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for round in 0..<50 {
                        let key = "k\((worker * 7 + round) % 20)"
                        if round % 3 == 0 {
                            cache.store(Self.response("http://a/\(key)", bytes: 20_000), for: key, now: Date())
                        } else if let entry = cache.entry(for: key) {
                            #expect(entry.key == key)
                            #expect(entry.data == Self.body("http://a/\(key)", 20_000))
                        }
                        if round % 17 == 16 { cache.remove(key) }
                    }
                }
            }
        }
        #expect(cache.totalBytes <= 400_000)
        #expect(try temporaryFiles().isEmpty)
        let reopened = try open(capacity: 400_000)
        #expect(reopened.totalBytes == cache.totalBytes)
    }

    func fileSize(_ url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
    }
}

/// The crash test: a child process writing entries is killed with
/// SIGKILL at varied moments, and the folder it leaves must reopen with no
/// torn entry and no temporary file.
@Suite(.timeLimit(.suiteBound)) struct DiskCacheKillTests {
    /// When each run is killed, in seconds after it is started (which
    /// includes starting the process): spread so that kills land before the
    /// first store, mid-write of a large body, during eviction, and so on.
    static let killDelays: [Double] = [0.05, 0.4, 0.12, 0.3, 0.08, 0.25, 0.18, 0.35, 0.06, 0.2, 0.15, 0.28]
    static let capacity = 24 << 20

    @Test(
        .enabled(
            if: ChildProcess.cacheWriterBinary != nil,
            "cache-writer is not built next to the tests (swift build --product cache-writer)"),
        .timeLimit(.suiteBound))
    func killedWriterNeverLeavesATornEntry() async throws {
        let writer = try #require(ChildProcess.cacheWriterBinary)
        let folder = try TemporaryDirectory(prefix: "disk-cache-kill")
        var lastIndex: [Int: Int] = [:]  // run -> highest index it reported stored
        var killed = 0
        var killedMidWrite = 0  // runs that left a temporary file: the kill landed inside a write
        // On a loaded machine the short runs may store nothing; then a few
        // longer ones follow, so the check never passes vacuously (bounded:
        // at most three, 1 + 2 + 3 s).
        var delays = Self.killDelays
        var run = 0
        while run < delays.count {
            // Every other run flushes each entry before publishing it, which
            // widens the window in which a kill finds a half-written file.
            let outcome = try await ChildProcess.runOffThePool(
                writer, [folder.url.path, "\(run)", "\(Self.capacity)"] + (run % 2 == 1 ? ["--sync"] : []),
                timeout: delays[run])
            if outcome.signal == SIGKILL { killed += 1 }
            if try !temporaryFiles(in: folder.url).isEmpty { killedMidWrite += 1 }
            #expect(outcome.stderr.isEmpty, "run \(run): \(outcome.stderr)")
            lastIndex[run] =
                outcome.stdout.split(separator: "\n")
                .compactMap { $0.hasPrefix("stored ") ? Int($0.dropFirst(7)) : nil }.max() ?? -1
            run += 1
            let stores = lastIndex.values.map { $0 + 1 }.reduce(0, +)
            if run == delays.count, stores < 20, delays.count < Self.killDelays.count + 3 {
                delays.append(Double(delays.count - Self.killDelays.count + 1))
            }
        }
        #expect(killed == delays.count, "every run should have been ended by SIGKILL")

        let cache = try DiskCache(folder: folder.url, configuration: .init(capacity: Self.capacity))
        #expect(try temporaryFiles(in: folder.url).isEmpty)
        let indexed = cache.count
        var verified = 0
        var verifiedBytes = 0
        for (run, last) in lastIndex {
            // One past the last reported store: the write a kill interrupted
            // may have been published before the report.
            for index in 0...(last + 1) {
                let key = CacheWriterBodies.key(run: run, index: index)
                guard let entry = cache.entry(for: key) else { continue }
                #expect(entry.key == key)
                #expect(entry.data == CacheWriterBodies.body(for: key), "torn or mixed-up body for \(key)")
                verified += 1
                verifiedBytes += entry.data.count
            }
        }
        // Every entry the cache indexed at open was found by some key and
        // verified byte for byte (a damaged one would have been deleted).
        #expect(cache.count == verified)
        #expect(verified > 0, "the writer never stored anything; nothing was tested")
        #expect(cache.totalBytes <= Self.capacity)
        print(
            "kill -9: \(delays.count) runs, \(killed) killed, "
                + "stores reported \(lastIndex.values.map { $0 + 1 }.reduce(0, +)), "
                + "\(killedMidWrite) killed mid-write (left a temp file), \(indexed) indexed at reopen, "
                + "\(verified) entries (\(verifiedBytes) bytes) verified")
    }

    func temporaryFiles(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasPrefix(DiskCache.temporaryPrefix)
        }
    }
}
