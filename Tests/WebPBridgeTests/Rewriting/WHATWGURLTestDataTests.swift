import Foundation
import TestTraits
import Testing

@testable import WebPBridge

/// The parser against every input of the WHATWG URL test data.
@Suite(.timeLimit(.suiteBound)) struct WHATWGURLTestDataTests {
    enum Outcome: Hashable {
        case hrefMatches, expectedFailure, idnaRefused, mismatch
    }

    static func outcome(_ entry: URLTestData.Entry) -> (Outcome, String) {
        var base: WHATWGURL?
        if let baseText = entry.base {
            guard let parsed = try? WHATWGURL(baseText) else {
                return (entry.href == nil ? .expectedFailure : .mismatch, "base did not parse")
            }
            base = parsed
        }
        do {
            let url = try WHATWGURL(entry.input, relativeTo: base)
            return (url.href == entry.href ? .hrefMatches : .mismatch, url.href)
        } catch let error {
            if entry.href == nil { return (.expectedFailure, "\(error)") }
            return (error.isUnsupported ? .idnaRefused : .mismatch, "\(error)")
        }
    }

    /// Every `http`/`https` input: its href as expected, or the failure the
    /// data expects, or an IDNA host refused; never a different href.
    @Test func everyHTTPInputParsesAsTheStandardSays() throws {
        let entries = URLTestData.shared.entries.filter(\.isHTTP)
        try #require(entries.count > 400)
        var counts: [Outcome: Int] = [:]
        for entry in entries {
            let (outcome, detail) = Self.outcome(entry)
            counts[outcome, default: 0] += 1
            #expect(outcome != .mismatch, "\(entry): got \(detail), expected \(entry.href ?? "failure")")
        }
        print(
            "WHATWG URL data, http(s): \(entries.count) inputs, \(counts[.hrefMatches] ?? 0) href match,"
                + " \(counts[.expectedFailure] ?? 0) expected failures, \(counts[.idnaRefused] ?? 0) IDNA refused,"
                + " \(counts[.mismatch] ?? 0) mismatches")
    }

    /// The standard's host tests (toascii.json), as WPT runs them
    /// (`https://` + input + `/x`): every ASCII input gives the expected host
    /// or failure; a non-ASCII one is refused as needing IDNA, or fails as expected.
    @Test func hostsAsTheStandardSays() throws {
        let url = try #require(
            Bundle.module.url(forResource: "toascii", withExtension: "json", subdirectory: "Resources"))
        let items = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [Any])
        var counts: [Outcome: Int] = [:]
        for case let item as [String: Any] in items {
            guard let input = item["input"] as? String else { continue }
            let expected = item["output"] as? String
            let outcome: Outcome
            do {
                let href = try WHATWGURL("https://" + input + "/x").href
                outcome = href == expected.map { "https://\($0)/x" } ? .hrefMatches : .mismatch
            } catch let error {
                outcome = expected == nil ? .expectedFailure : error.isUnsupported ? .idnaRefused : .mismatch
            }
            counts[outcome, default: 0] += 1
            #expect(outcome != .mismatch, "\(input.debugDescription): expected \(expected ?? "failure")")
            if input.unicodeScalars.allSatisfy(\.isASCII) { #expect(outcome != .idnaRefused) }
        }
        try #require(counts.values.reduce(0, +) > 80)
        print(
            "WHATWG toascii data: \(counts.values.reduce(0, +)) hosts, \(counts[.hrefMatches] ?? 0) match,"
                + " \(counts[.expectedFailure] ?? 0) expected failures, \(counts[.idnaRefused] ?? 0) IDNA refused,"
                + " \(counts[.mismatch] ?? 0) mismatches")
    }

    /// The rewriter's fast path (an href recognised without parsing) agrees
    /// with the parser on every input and expected href of the data, and on
    /// generated URLs.
    @Test func theFastPathAgreesWithTheParser() {
        var inputs = URLTestData.shared.entries.flatMap { [$0.input] + ($0.href.map { [$0] } ?? []) }
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<5_000 { inputs.append(URLGenerator.url(around: "img.example.com", using: &generator)) }
        inputs += [
            "http://a.b/c", "http://1.2.3.4/", "http://a.0x1/", "http://a.b./", "http://xn--a.b/", "http://a/./b",
        ]
        for input in inputs {
            #expect((try? WHATWGURL.href(of: input)) == (try? WHATWGURL(input).href), "\(input.debugDescription)")
        }
    }

    /// Every input, whatever its scheme (file, opaque paths, non-special hosts).
    @Test func everyInputParsesAsTheStandardSays() throws {
        let entries = URLTestData.shared.entries
        try #require(entries.count > 800)
        var counts: [Outcome: Int] = [:]
        for entry in entries {
            let (outcome, detail) = Self.outcome(entry)
            counts[outcome, default: 0] += 1
            #expect(outcome != .mismatch, "\(entry): got \(detail), expected \(entry.href ?? "failure")")
        }
        print(
            "WHATWG URL data, every scheme: \(entries.count) inputs, \(counts[.hrefMatches] ?? 0) href match,"
                + " \(counts[.expectedFailure] ?? 0) expected failures, \(counts[.idnaRefused] ?? 0) IDNA refused,"
                + " \(counts[.mismatch] ?? 0) mismatches")
    }
}
