import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import ImageOrigin

/// Floods of distinct long keys against the origin's stores: each stays
/// within its bound in bytes, keys included.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct OriginMemoryBoundsTests {
    private func padded(_ index: Int, bytes: Int) -> String {
        let suffix = String(index)
        return String(repeating: "p", count: bytes - suffix.utf8.count) + suffix
    }

    @Test func theBudgetSetsEveryShare() {
        var configuration = ImageOrigin.Configuration(root: "/tmp")
        #expect(configuration.memoryBudget.totalBytes == 512 << 20)
        #expect(configuration.variantCacheBytes == 256 << 20 && configuration.sourceCacheBytes == 64 << 20)
        configuration.memoryBudget = ImageOrigin.MemoryBudget(totalBytes: 64 << 20)
        #expect(configuration.variantCacheBytes == 32 << 20 && configuration.sourceCacheBytes == 8 << 20)
        configuration.variantCacheBytes = 1 << 20
        #expect(configuration.variantCacheBytes == 1 << 20, "a share set after the budget overrides it")
        let budget = configuration.memoryBudget
        let shares = [
            budget.variantCacheBytes, budget.sourceCacheBytes, budget.pipelineMemoryBytes, budget.sourceFactsBytes,
            budget.fileResolutionBytes, budget.requestBodyBytes, budget.readyAnswersBytes, budget.workInFlightBytes,
        ]
        #expect(shares.reduce(0, +) == budget.totalBytes, "the shares fit the budget, work in flight the rest")
        #expect(budget.workInFlightBytes == (16 << 20) - 3 * ((64 << 20) / 512), "64 MiB leave work 15.6 MiB")
    }

    @Test func theVariantCacheChargesKeys() {
        let cache = VariantCache<String>(capacity: 1 << 20)
        let keyBytes = 3_000
        for index in 0..<2_000 { cache.insert("v", cost: 10, for: padded(index, bytes: keyBytes)) }
        let statistics = cache.statistics
        #expect(statistics.entries * keyBytes <= cache.capacity, "\(statistics.entries) entries")
        #expect(statistics.bytes >= statistics.entries * (keyBytes + 10))
        cache.insert("v", cost: 10, for: padded(1, bytes: 12_000))
        #expect(cache.value(for: padded(1, bytes: 12_000)) == nil, "a 12 KB key is not cached")
    }

    /// A valid fop of 30 steps (the most allowed), distinct for each index.
    private func longFop(_ index: Int) -> String {
        (0..<30).map { step in
            "imageMogr2/thumbnail/\(step == 0 ? index + 1 : 100 + step)x\(200 + step)/format/webp/quality/\(50 + step)"
        }.joined(separator: "|")
    }

    @Test func parsedPipelinesAreBoundedInBytes() throws {
        let bound = ImageOrigin.MemoryBudget().pipelineMemoryBytes
        let memory = PipelineMemory(capacityBytes: bound)
        let fopBytes = longFop(0).utf8.count
        for index in 0..<1_000 { _ = try memory.pipeline(for: longFop(index)) }
        #expect(memory.count * fopBytes <= bound, "\(memory.count) fops of \(fopBytes)+ bytes")
        #expect(memory.totalBytes <= bound && memory.totalBytes >= memory.count * fopBytes)
        let before = memory.count
        // Valid or not (a canonical grammar may refuse leading zeros), a 5 KB fop is not kept.
        _ = try? memory.pipeline(for: "imageView2/2/w/" + String(repeating: "0", count: 5_000) + "1")
        #expect(memory.count <= before)
    }

    @Test func sourceFactsAreBoundedInBytes() {
        let bound = ImageOrigin.MemoryBudget().sourceFactsBytes
        let facts = SourceFacts(capacityBytes: bound)
        let pathBytes = 3_000
        for index in 0..<5_000 {
            let file = FileResolver.File(
                path: "/" + padded(index, bytes: pathBytes), size: 1, modified: Date(), inode: UInt64(index))
            _ = facts.facts(about: file) { _ in SourceFacts.Facts(format: .png, tag: "t", lastModified: "m") }
        }
        #expect(facts.count * pathBytes <= bound, "\(facts.count) paths of \(pathBytes) bytes")
        #expect(facts.totalBytes <= bound && facts.totalBytes >= facts.count * pathBytes)
    }

    @Test func pathResolutionsAreBoundedInBytes() {
        let bound = FileResolver.defaultMemoryBytes
        let memory = FileResolver.ResolutionMemory(capacityBytes: bound)
        let identity = FileResolver.Identity(device: 1, inode: 1)
        let pathBytes = 3_000
        for index in 0..<5_000 {
            memory.remember("/r/x", for: "/" + padded(index, bytes: pathBytes), identity: identity)
        }
        #expect(memory.count * pathBytes <= bound, "\(memory.count) paths of \(pathBytes) bytes")
        #expect(memory.totalBytes <= bound && memory.totalBytes >= memory.count * pathBytes)
    }

    /// Distinct long transformations of one small file, through the handler
    /// as the server calls it: the variant cache holds no more than its
    /// bytes, keys included. The fops differ in their widths, which no
    /// canonical form can merge.
    @Test func aFloodOfDistinctLongVariantsStaysWithinTheVariantCache() async throws {
        let folder = try TemporaryDirectory(prefix: "origin-flood")
        try PNGEncoder().encode(SyntheticImages.photo(width: 16, height: 16)).write(to: folder.file("s.png"))
        let capacity = 256 << 10
        let origin = try ImageOrigin(configuration: .init(root: folder.url.path, variantCacheBytes: capacity))
        var keyBytes = Int.max
        for index in 0..<800 {
            let steps = (0..<30).map { step in "imageView2/2/w/\(8 + (index >> step) & 1)/h/\(8 + step % 8)" }
            let fop = steps.joined(separator: "|")
            keyBytes = min(keyBytes, fop.utf8.count)
            let response = await origin.handle(HTTPRequest(target: "/s.png?" + fop))
            #expect(response.status == .ok)
        }
        let statistics = origin.variants.statistics
        #expect(statistics.entries * keyBytes <= capacity, "\(statistics.entries) variants, keys of \(keyBytes)+ bytes")
        #expect(statistics.bytes <= capacity)
    }

    /// A refusal answered from the variant cache is the answer the first
    /// request got: 413 with the same message; with `ignore-error/1` the
    /// source as it is; and `If-None-Match: *` does not match it, since no
    /// such variant exists.
    @Test func aRememberedRefusalIsAnsweredAsTheFirstWas() async throws {
        let folder = try TemporaryDirectory(prefix: "origin-refusal")
        let png = try PNGEncoder().encode(SyntheticImages.photo(width: 16, height: 16))
        try png.write(to: folder.file("s.png"))
        var configuration = ImageOrigin.Configuration(root: folder.url.path)
        configuration.transformer.limits.maxWorkPixels = 1_000
        let origin = try ImageOrigin(configuration: configuration)
        let refused = "/s.png?imageMogr2/thumbnail/300x300!"
        let first = await origin.handle(HTTPRequest(target: refused))
        #expect(first.status.code == 413 && origin.variants.statistics.entries == 1)
        let again = await origin.handle(HTTPRequest(target: refused))
        #expect(again.status.code == 413 && again.bodyText == first.bodyText)
        let wildcard = await origin.handle(HTTPRequest(target: refused, headers: ["If-None-Match": "*"]))
        #expect(wildcard.status.code == 413)
        #expect(origin.variants.statistics.hits == 2)

        let ignoring = refused + "/ignore-error/1"
        for _ in 0..<2 {
            let response = await origin.handle(HTTPRequest(target: ignoring))
            #expect(response.status == .ok && response.bodyData == png)
        }
        #expect(origin.variants.statistics.hits == 3)
        let metrics = origin.metrics.render()
        #expect(metrics.contains("webpbridge_origin_variant_cache_total{result=\"hit\"} 3"), "\(metrics)")
    }

    /// Distinct refused variants (each past a tiny work budget, 413 from
    /// the headers) are remembered in the variant cache, keys and messages
    /// charged: a flood of them stays within its bytes, and each is
    /// answered 413 again whether it was still held or not.
    @Test func aFloodOfDistinctRefusalsStaysWithinTheVariantCache() async throws {
        let folder = try TemporaryDirectory(prefix: "origin-refusals")
        try PNGEncoder().encode(SyntheticImages.photo(width: 16, height: 16)).write(to: folder.file("s.png"))
        let capacity = 64 << 10
        var configuration = ImageOrigin.Configuration(root: folder.url.path, variantCacheBytes: capacity)
        configuration.transformer.limits.maxWorkPixels = 1_000
        let origin = try ImageOrigin(configuration: configuration)
        let fops = (0..<800).map { index in
            (0..<8).map { step in "imageMogr2/thumbnail/\(100 + index)x\(100 + step)!" }.joined(separator: "|")
        }
        for fop in fops {
            let response = await origin.handle(HTTPRequest(target: "/s.png?" + fop))
            #expect(response.status.code == 413)
        }
        let statistics = origin.variants.statistics
        let smallest = fops.map(\.utf8.count).min() ?? 0
        #expect(statistics.entries > 0 && statistics.entries * smallest <= capacity, "\(statistics.entries) refusals")
        #expect(statistics.bytes <= capacity)
        // The last ones are held, the first long evicted: both are refused alike.
        for fop in [fops[0], fops[799]] {
            #expect(await origin.handle(HTTPRequest(target: "/s.png?" + fop)).status.code == 413)
        }
        #expect(origin.variants.statistics.hits == 1)
    }
}
