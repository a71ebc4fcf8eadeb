import Foundation
import TestTraits
import Testing

@testable import WebPBridge

/// Every valid input of the WHATWG URL test data, on a host a rule lists,
/// through every dialect: a variant must name the same resource as the
/// input does to a browser (the same host, port, user info and fragment, and
/// the same path once the dialect's own additions are removed), and
/// rewriting it again must change nothing.
@Suite(.timeLimit(.suiteBound)) struct WHATWGRewriteTests {
    struct Tally {
        var inputs = 0
        var rewrites = 0
        var sameResource = 0
        var unrewritten = 0
        /// Of those, left alone because Foundation could not hold the URL or its variant as serialised.
        var notHeld = 0
        var wrong = 0
    }

    /// `input` with `.jpg` before its query or fragment, so the path names an image.
    static func withImageName(_ input: String) -> String {
        guard let index = input.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return input + ".jpg" }
        return String(input[..<index]) + ".jpg" + input[index...]
    }

    @Test func everyValidInputRewritesToTheSameResourceOrIsLeftAlone() throws {
        var tally = Tally()
        let entries = URLTestData.shared.entries.filter { $0.href != nil && $0.isHTTP }
        try #require(entries.count > 200)
        for entry in entries {
            var base: URL?
            var parsedBase: WHATWGURL?
            if let baseText = entry.base {
                // The text API takes its base as a Foundation URL: bases it cannot hold are not tried.
                guard let url = URL(string: baseText), url.absoluteString == baseText,
                    let parsed = try? WHATWGURL(baseText)
                else { continue }
                base = url
                parsedBase = parsed
            }
            for text in [entry.input, Self.withImageName(entry.input)] {
                tally.inputs += 1
                let original = try? WHATWGURL(text, relativeTo: parsedBase)
                for rule in Rules.everyDialect {
                    check(text, base: base, original: original, rule: rule, tally: &tally)
                }
            }
        }
        print(
            "WHATWG URL data through \(Rules.everyDialect.count) dialects: \(tally.inputs) inputs,"
                + " \(tally.rewrites) rewrites, \(tally.sameResource) to the same resource,"
                + " \(tally.unrewritten) left unrewritten"
                + " (\(tally.notHeld) of them as Foundation would re-encode them),"
                + " \(tally.wrong) wrong")
        #expect(tally.wrong == 0)
        #expect(tally.sameResource > 500)
    }

    private func check(_ text: String, base: URL?, original: WHATWGURL?, rule: RewriteRule, tally: inout Tally) {
        guard let original, case .some(let host) = original.host else {
            let result = rewriter(rule, host: "img.example.com")?.rewrite(text, relativeTo: base)
            #expect(result?.isRewritten != true, "\(text): rewritten though it is not a URL with a host")
            return
        }
        var hostName = host.serialized
        if hostName.hasSuffix("."), hostName.count > 1 { hostName.removeLast() }
        guard let rewriter = rewriter(rule, host: hostName) else { return }
        let textResult = rewriter.rewrite(text, relativeTo: base)
        guard let result = textResult, result.isRewritten else {
            tally.unrewritten += 1
            if textResult == nil || textResult?.reason.kind == .notRewritable { tally.notHeld += 1 }
            return
        }
        tally.rewrites += 1
        let name = "\(rule.dialect.name): \(text.debugDescription) → \(result.url.absoluteString)"
        guard let variant = try? WHATWGURL(result.url.absoluteString), variant.href == result.url.absoluteString,
            let parts = URLParts(variant.href), let compiled = try? CompiledRule(rule, index: 0)
        else {
            tally.wrong += 1
            Issue.record("\(name): the variant is not a URL as serialised")
            return
        }
        var same =
            variant.scheme == original.scheme && variant.host == original.host && variant.port == original.port
            && variant.fragment == original.fragment
        if case .template = rule.dialect {
            // {host} is the host and port: a template does not carry user info over.
        } else {
            same = same && variant.username == original.username && variant.password == original.password
        }
        let source = String(compiled.dialect.sourcePath(of: parts))
        if rule.dialect == .qiniuLegacy {
            // A bucket style is named after the source (`photo.jpg-WebPiOSW750`);
            // with a query, imageView2 goes into the query instead.
            same = same && (source == original.pathString + "-WebPiOSW750" || source == original.pathString)
        } else {
            same = same && source == original.pathString
        }
        // The source's query items are all still there.
        let items = Set(variant.query.map { RawQuery.items($0[...]).map(String.init) } ?? [])
        for item in original.query.map({ RawQuery.items($0[...]) }) ?? [] where !item.isEmpty {
            same = same && items.contains(String(item))
        }
        // Rewriting the variant again changes nothing.
        let again = rewriter.rewrite(result.url)
        let againText = rewriter.rewrite(result.url.absoluteString, relativeTo: nil)
        same = same && !again.isRewritten && again.cacheKey == result.cacheKey && againText?.isRewritten == false
        if same {
            tally.sameResource += 1
        } else {
            tally.wrong += 1
            Issue.record("\(name): not the same resource (\(original.href)), or not idempotent")
        }
    }

    private func rewriter(_ rule: RewriteRule, host: String) -> Rewriter? {
        let placed = RewriteRule(
            name: rule.name, hosts: [host], dialect: rule.dialect, width: rule.width, quality: rule.quality)
        return try? Rewriter(configuration: RewriteConfiguration(rules: [placed]))
    }
}
