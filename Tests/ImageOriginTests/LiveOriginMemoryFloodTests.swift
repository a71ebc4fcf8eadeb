import Foundation
import HTTPServer
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Distinct long variants of one file against the origin on a real socket
/// (127.0.0.1, port 0), sent by `curl` over one connection: `/metrics`
/// shows each cache within its share of the memory budget, keys included.
/// The fops differ in their widths, which no canonical form can merge.
@Suite(.enabled(if: ExternalTool.available("curl"), "needs curl"), .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct LiveOriginMemoryFloodTests {
    /// 1 MiB: a 512 KiB variant cache, a 2 KiB fop memory.
    private static let budget = ImageOrigin.MemoryBudget(totalBytes: 1 << 20)

    /// The value of an unlabelled gauge in Prometheus text.
    private static func gauge(_ name: String, in metrics: String) -> Int? {
        for line in metrics.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Int(line.dropFirst(name.count + 1))
        }
        return nil
    }

    @Test func distinctLongVariantsStayWithinTheirShares() async throws {
        let folder = try TemporaryDirectory(prefix: "origin-live-flood")
        try PNGEncoder().encode(SyntheticImages.photo(width: 16, height: 16)).write(to: folder.file("s.png"))
        let budget = Self.budget
        let origin = try ImageOrigin(configuration: .init(root: folder.url.path, memoryBudget: budget))
        let variants = 1_500
        try await LoopbackServer.with(origin) { server in
            var config = ""
            for index in 0..<variants {
                let fop = (0..<12).map { step in "imageView2/2/w/\(8 + (index >> step) & 1)/h/\(8 + step % 8)" }
                    .joined(separator: "|")
                if index > 0 { config += "next\n" }
                config += "url = \"\(server.baseURL.absoluteString)/s.png?\(fop)\"\noutput = \"/dev/null\"\n"
                config += "write-out = \"%{http_code}\\n\"\n"
            }
            let outcome = try await ChildProcess.curlBatch(config, in: folder)
            #expect(outcome.exitStatus == 0, "\(outcome.stderr.prefix(500))")
            let statuses = outcome.stdout.split(separator: "\n")
            #expect(statuses.count == variants && statuses.allSatisfy { $0 == "200" })

            let (data, _) = try await URLSession.shared.data(from: server.url("/metrics"))
            let metrics = String(decoding: data, as: UTF8.self)
            let held = try #require(Self.gauge("webpbridge_origin_variant_cache_bytes", in: metrics))
            #expect(held > 0 && held <= budget.variantCacheBytes, "variants \(held) of \(budget.variantCacheBytes)")
            let fops = try #require(Self.gauge("webpbridge_origin_pipeline_memory_bytes", in: metrics))
            #expect(fops <= budget.pipelineMemoryBytes)
            #expect(Self.gauge("webpbridge_origin_memory_budget_bytes", in: metrics) == budget.totalBytes)
            #if os(Linux)
                #expect((Self.gauge("webpbridge_origin_resident_bytes", in: metrics) ?? 0) > 0, "VmRSS is reported")
            #endif
            print(
                "origin flood: variants \(held) bytes, fops \(fops) bytes, resident "
                    + "\(Self.gauge("webpbridge_origin_resident_bytes", in: metrics) ?? 0) bytes")
        }
    }
}
