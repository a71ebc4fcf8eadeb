import Foundation
import TestTraits
import Testing

@testable import URLRewriting

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
