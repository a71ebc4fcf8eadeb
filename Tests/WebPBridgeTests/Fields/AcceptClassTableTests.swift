import Foundation
import TestTraits
import Testing

@testable import WebPBridge

/// The one table of `Accept` headers and the format class each gets
/// (`Resources/accept-classes.json`): `avif` when AVIF and WebP are both
/// named with q > 0, `webp` when WebP is, else `original`. This test holds
/// ``AcceptHeader`` to it; `make nginx-classes` holds the nginx recipe
/// (deploy/nginx/webp-bridge.conf) to the same rows.
@Suite(.timeLimit(.suiteBound))
struct AcceptClassTableTests {
    struct Row: Decodable {
        /// The header as sent; `nil` for a request without one.
        let accept: String?
        /// `original`, `webp` or `avif`.
        let `class`: String
        let note: String
    }

    static let table = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("Resources/accept-classes.json")

    static func rows() throws -> [Row] {
        try JSONDecoder().decode([Row].self, from: Data(contentsOf: table))
    }

    /// The class from ``AcceptHeader/namesExplicitly(_:in:)``, the reading
    /// the client policy uses.
    static func namedClass(_ accept: String?) -> String {
        let webp = AcceptHeader.namesExplicitly("image/webp", in: accept)
        let avif = AcceptHeader.namesExplicitly("image/avif", in: accept)
        return webp ? (avif ? "avif" : "webp") : "original"
    }

    /// The class from the parsed ranges (``AcceptHeader/explicitQuality(of:)``),
    /// the reading the origin's format negotiation uses.
    static func parsedClass(_ accept: String?) -> String {
        guard let accept else { return "original" }
        let header = AcceptHeader(accept)
        let webp = (header.explicitQuality(of: "image/webp") ?? 0) > 0
        let avif = (header.explicitQuality(of: "image/avif") ?? 0) > 0
        return webp ? (avif ? "avif" : "webp") : "original"
    }

    /// The class from the one negotiation (``AcceptHeader/preferred(_:in:over:)``)
    /// the client policy and the origin share: a client that names WebP,
    /// and AVIF when the negotiation between the two (AVIF first, as the
    /// rules list them) gives AVIF. AVIF wins only with a q at least
    /// WebP's, so this holds every row that names both with equal q — all
    /// the table's browsers — to the class the nginx map gives it.
    static func negotiatedClass(_ accept: String?) -> String {
        guard AcceptHeader.preferred(["image/webp"], in: accept) != nil else { return "original" }
        return AcceptHeader.preferred(["image/avif", "image/webp"], in: accept) == 0 ? "avif" : "webp"
    }

    @Test func theTableCoversEveryKindOfRow() throws {
        let rows = try Self.rows()
        #expect(rows.count >= 100)
        for expected in ["original", "webp", "avif"] {
            #expect(rows.contains { $0.class == expected }, "no \(expected) row")
        }
        #expect(rows.allSatisfy { ["original", "webp", "avif"].contains($0.class) })
    }

    @Test func acceptHeaderGivesEveryRowItsClass() throws {
        for (index, row) in try Self.rows().enumerated() {
            let label = "row \(index + 1) (\(row.note)): \(row.accept.map { String($0.prefix(120)) } ?? "no header")"
            #expect(Self.namedClass(row.accept) == row.class, "namesExplicitly, \(label)")
            #expect(Self.parsedClass(row.accept) == row.class, "ranges, \(label)")
            #expect(AcceptHeader.acceptsWebP(row.accept) == (row.class != "original"), "acceptsWebP, \(label)")
            #expect(Self.negotiatedClass(row.accept) == row.class, "preferred, \(label)")
        }
    }
}
