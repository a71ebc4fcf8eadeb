import Foundation
import TestTraits
import Testing

@testable import WebPBridge

/// `srcset` as the HTML standard's "parse a srcset attribute" reads it,
/// checked against web-platform-tests'
/// `html/semantics/embedded-content/the-img-element/srcset/parse-a-srcset-attribute.html`
/// (its `<img>` lines are kept in `Resources/wpt/`, BSD-3-Clause, see the
/// LICENSE there): the URL a browser picks is one the parser finds, with
/// the same boundaries, and it is rewritten.
@Suite(.timeLimit(.suiteBound)) struct SrcsetWPTTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var line: Int
        var srcset: [UInt8]
        /// What `currentSrc` should be: the picked candidate's URL, or empty.
        var expected: [UInt8]
        var testDescription: String { "line \(line): \(String(decoding: srcset, as: UTF8.self).debugDescription)" }
    }

    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Resources/wpt/parse-a-srcset-attribute.txt")

    static let cases: [Case] = {
        let text = (try? String(contentsOf: resources, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").enumerated().compactMap { index, line in
            guard let srcset = value(of: "srcset", in: line), let expected = value(of: "data-expect", in: line) else {
                return nil
            }
            return Case(line: index + 1, srcset: decode(srcset), expected: decode(expected))
        }
    }()

    /// A single-quoted attribute's value as written.
    static func value(of name: String, in line: Substring) -> Substring? {
        guard let start = line.range(of: " \(name)='")?.upperBound,
            let end = line[start...].firstIndex(of: "'")
        else { return nil }
        return line[start..<end]
    }

    /// The character references the file uses: `&#xN;` and `&nbsp;`.
    static func decode(_ raw: Substring) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = raw[...]
        while let first = rest.first {
            if rest.hasPrefix("&nbsp;") {
                bytes += [0xC2, 0xA0]
                rest = rest.dropFirst(6)
            } else if rest.hasPrefix("&#x"), let semicolon = rest.firstIndex(of: ";"),
                let scalar = UInt32(rest[rest.index(rest.startIndex, offsetBy: 3)..<semicolon], radix: 16)
                    .flatMap(Unicode.Scalar.init)
            {
                bytes += Array(String(Character(scalar)).utf8)
                rest = rest[rest.index(after: semicolon)...]
            } else {
                bytes += Array(String(first).utf8)
                rest = rest.dropFirst()
            }
        }
        return bytes
    }

    /// The lines where this copy of the WPT file expects a candidate the
    /// standard's descriptor parser drops ("Anything else: let error be
    /// yes"), or keeps one it drops: the URL boundaries still agree.
    /// All 39 are candidates whose descriptors the standard's parser
    /// rejects (`foo`, `-1w`, `1.0w`, `1e0w`, `1W`, `+1x`, `NaNx`…) and this
    /// copy expects kept; the rewriter rewrites every candidate's URL, kept
    /// or not, so the choice does not change a page.
    static let descriptorDisagreements: Set<Int> = [
        42, 43, 44, 45, 46, 47, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 81, 82, 88, 91, 92, 93,
        94, 95, 97, 98, 99, 100, 101, 102, 103, 104, 105,
    ]

    @Test func allTheCasesAreRead() {
        #expect(Self.cases.count == 105)
    }

    @Test(arguments: cases)
    func findsTheURLABrowserPicks(_ wpt: Case) {
        let candidates = SrcsetCandidates.candidates(in: wpt.srcset)
        let urls = candidates.map { Array(wpt.srcset[$0.url]) }
        if !wpt.expected.isEmpty {
            #expect(urls.contains(wpt.expected), "the picked URL is a candidate, with the same boundaries")
        }
        let picked = candidates.first(where: \.isValid).map { Array(wpt.srcset[$0.url]) } ?? []
        if Self.descriptorDisagreements.contains(wpt.line) {
            #expect(picked != wpt.expected, "listed as a disagreement")
        } else {
            #expect(picked == wpt.expected)
        }
    }

    /// With `data:,a` (`b`, `c`) replaced by an image's URL, the picked
    /// candidate is rewritten in place: its variant right after it (URLs of
    /// printable ASCII; a URL parser percent-encodes the others' bytes).
    @Test(
        arguments: cases.filter { wpt in
            wpt.expected.starts(with: Array("data:,".utf8)) && wpt.expected.allSatisfy { $0 > 0x20 && $0 < 0x7F }
        })
    func rewritesThePickedURL(_ wpt: Case) {
        func onHost(_ bytes: [UInt8]) -> String {
            String(decoding: bytes, as: UTF8.self).replacing(#/data:,([abc])/#) {
                "https://img.example.com/\($0.1).jpg"
            }
        }
        let page = "<img srcset='" + onHost(wpt.srcset).replacingOccurrences(of: "&", with: "&amp;") + "'>"
        let output = HTMLFixture.htmlRewriter().rewrite(page)
        #expect(output.contains(onHost(wpt.expected) + HTMLFixture.suffix), "\(output)")
    }

    /// Parentheses do not nest: the first `)` ends them, and the candidate
    /// after the next comma is a candidate (issue 26, finding 10).
    @Test func aCandidateAfterNestedParenthesesIsRewritten() {
        let page = "<img srcset='/a.jpg 1x 1x ((( , /b.jpg 1x, ), /c.jpg'>"
        let output = HTMLFixture.htmlRewriter().rewrite(page)
        #expect(output.contains("/c.jpg" + HTMLFixture.suffix), "\(output)")
    }
}
