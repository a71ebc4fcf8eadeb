import Foundation
import TestTraits
import Testing
import URLRewriting

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
