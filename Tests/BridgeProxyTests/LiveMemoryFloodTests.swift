import BridgeProxy
import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Floods of distinct long keys against the bridge on a real socket
/// (127.0.0.1, port 0), sent by `curl` as an independent client, one
/// connection for all: `/__bridge/metrics` shows every cache within its
/// share of the memory budget, keys included.
@Suite(.enabled(if: ExternalTool.available("curl"), "needs curl"), .timeLimit(.suiteBound))
struct LiveMemoryFloodTests {
    /// 16 MiB: a 2 MiB hit memo and a 4 MiB data cache, so a few thousand
    /// requests with long keys overflow both.
    private static let budget = BridgeProxy.MemoryBudget(totalBytes: 16 << 20)

    private static func padded(_ index: Int, bytes: Int) -> String {
        let suffix = String(index)
        return String(repeating: "u", count: bytes - suffix.utf8.count) + suffix
    }

    /// Runs one `curl` for all `requests` (target and `User-Agent` each), off
    /// Swift's cooperative pool (which runs the server's handlers).
    private static func flood(
        _ base: String, _ requests: [(target: String, userAgent: String)], in folder: TemporaryDirectory
    )
        async throws
    {
        var config = ""
        for (index, request) in requests.enumerated() {
            if index > 0 { config += "next\n" }
            config += "url = \"\(base)\(request.target)\"\n"
            config += "header = \"User-Agent: \(request.userAgent)\"\n"
            config += "header = \"Accept: \(BridgeFixture.webPAccept)\"\n"
            config += "output = \"/dev/null\"\n"
        }
        let outcome = try await ChildProcess.curlBatch(config, in: folder)
        #expect(outcome.exitStatus == 0, "\(outcome.stderr.prefix(500))")
    }

    /// The value of an unlabelled gauge in Prometheus text.
    private static func gauge(_ name: String, in metrics: String) -> Int? {
        for line in metrics.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Int(line.dropFirst(name.count + 1))
        }
        return nil
    }

    private static func metrics(_ server: LoopbackServer) async throws -> String {
        let (data, _) = try await URLSession.shared.data(from: server.url("/__bridge/metrics"))
        return String(decoding: data, as: UTF8.self)
    }

    @Test func longUserAgentsAndQueriesStayWithinTheirShares() async throws {
        let fixture = try BridgeFixture()
        let budget = Self.budget
        let rewriter = try fixture.rewriter()
        let mode = BridgeProxy.Configuration.Mode.reverse(upstream: URL(string: "http://img.test")!)
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: rewriter, dataLoader: ViaStampingLoader(wrapping: fixture.upstream),
                dataCache: MemoryDataCache(capacity: budget.dataCacheBytes), memoryCache: nil,
                negativeCacheBytes: budget.failedVariantsBytes, requestTimeout: .seconds(60),
                redirectPolicy: mode.redirectPolicy(rewriter: rewriter)))
        var configuration = BridgeProxy.Configuration(
            mode: mode, pipeline: pipeline,
            passthroughLoader: fixture.upstream)
        configuration.memoryBudget = budget
        let bridge = try BridgeProxy(configuration: configuration)
        let folder = try TemporaryDirectory(prefix: "flood")
        try await LoopbackServer.with(bridge) { server in
            let base = server.baseURL.absoluteString
            try await Self.flood(base, [("/photo.jpg", "warm")], in: folder)

            // Cache hits from 3,000 clients with distinct 3 KB User-Agents: each memoised, each key charged.
            try await Self.flood(
                base, (0..<3_000).map { ("/photo.jpg", Self.padded($0, bytes: 3_000)) }, in: folder)
            let afterHits = try await Self.metrics(server)
            let memo = try #require(Self.gauge("webpbridge_proxy_hit_memo_bytes", in: afterHits))
            #expect(memo > 0 && memo <= budget.hitMemoBytes, "hit memo \(memo) of \(budget.hitMemoBytes)")

            // 12 KB User-Agents: past the key bound, never memoised.
            try await Self.flood(
                base, (0..<300).map { ("/photo.jpg", Self.padded($0, bytes: 12_000)) }, in: folder)
            let afterLong = try await Self.metrics(server)
            #expect(Self.gauge("webpbridge_proxy_hit_memo_bytes", in: afterLong) ?? -1 <= memo)

            // 2,000 distinct 3 KB query strings: each a data-cache entry whose key and URL are charged.
            try await Self.flood(
                base, (0..<2_000).map { ("/photo.jpg?v=" + Self.padded($0, bytes: 3_000), "q") }, in: folder)
            let afterQueries = try await Self.metrics(server)
            let data = try #require(Self.gauge("webpbridge_proxy_data_cache_bytes", in: afterQueries))
            #expect(data > 0 && data <= budget.dataCacheBytes, "data cache \(data) of \(budget.dataCacheBytes)")
            let memoNow = try #require(Self.gauge("webpbridge_proxy_hit_memo_bytes", in: afterQueries))
            #expect(memoNow <= budget.hitMemoBytes)
            print(
                "flood: hit memo \(memo) → \(memoNow) bytes, data cache \(data) bytes, resident "
                    + "\(Self.gauge("webpbridge_proxy_resident_bytes", in: afterQueries) ?? 0) bytes")
            #if os(Linux)
                #expect((Self.gauge("webpbridge_proxy_resident_bytes", in: afterQueries) ?? 0) > 0, "VmRSS is reported")
            #endif
            #expect(Self.gauge("webpbridge_proxy_memory_budget_bytes", in: afterQueries) == budget.totalBytes)
        }
    }
}
