public import Foundation
import WebPBridge

/// `fuzz-rewrite`: every preset's `Rewriter` and client policy on one URL.
///
/// The input is text: the URL on the first line, then optionally a
/// `User-Agent` and an `Accept` value on the next two.
public enum RewriteFuzzEntry {
    /// The host every preset is configured for; seeds use it so that most
    /// inputs reach a dialect rather than stopping at the host lookup.
    public static let host = "img.example.com"

    private static let rewriters: [Rewriter] = RewritePreset.all.flatMap { preset in
        [
            (try? preset.configuration(host: host, width: 750, quality: 80)),
            (try? preset.configuration(host: "*.example.com", width: 750)),
        ]
        .compactMap { $0 }.compactMap { try? Rewriter(configuration: $0) }
    }

    /// Rewrites the URL with every preset and checks the documented
    /// properties: rewriting a variant leaves it unchanged (idempotence), and
    /// a URL and its variant share one cache key.
    public static func run(_ data: Data) {
        let lines = String(decoding: data, as: UTF8.self).split(
            separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        guard let first = lines.first, let url = URL(string: String(first)) else { return }
        let userAgent = lines.count > 1 ? String(lines[1]) : nil
        let accept = lines.count > 2 ? String(lines[2]) : nil
        _ = Rewriter.normalizedCacheKey(for: url)
        for rewriter in rewriters {
            let result = rewriter.rewrite(url)
            if result.isRewritten {
                let again = rewriter.rewrite(result.url)
                FuzzExpectation.require(
                    again.url == result.url,
                    "not idempotent (\(rewriter.configuration.rules[0].name)): "
                        + "\(url) → \(result.url) → \(again.url)")
                FuzzExpectation.require(
                    again.cacheKey == result.cacheKey,
                    "a URL and its variant have different keys: \(result.cacheKey) vs \(again.cacheKey)")
            }
            let request = ClientRequest(url: url, userAgent: userAgent, accept: accept)
            for policy in [ClientPolicy.standard, .legacy] { _ = policy.decision(for: request, rewrite: result) }
        }
    }
}
