public import Foundation

/// The one table of client-hint headers and the width bucket each request
/// gets (`Tests/WebPBridgeTests/Fields/Resources/hint-buckets.json`):
/// ``ClientHints`` is tested against it (`ClientHintTableTests`), the
/// bridge's route through it (`ClientHintsRouteTests`), and `make
/// nginx-classes` holds the nginx recipe's key map to it.
public struct HintBucketTable: Decodable, Sendable {
    /// The width buckets, as `ClientHints.widthBuckets`.
    public let buckets: [Int]
    public let rows: [Row]

    public struct Row: Decodable, Sendable, CustomStringConvertible {
        public let headers: [String: String]
        /// The width bucket before Save-Data; `nil` for none.
        public let bucket: Int?
        public let saveData: Bool
        /// The width the variant is made at most, after Save-Data.
        public let sized: Int?
        public let note: String

        public var description: String { "\(note): \(headers)" }
    }

    /// Where the table is, read in place.
    public static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("WebPBridgeTests/Fields/Resources/hint-buckets.json")

    /// The table, decoded.
    public static func load() throws -> HintBucketTable {
        try JSONDecoder().decode(HintBucketTable.self, from: Data(contentsOf: url))
    }

    /// The rows, or none when the table cannot be read (a test of the table
    /// itself then fails on its count).
    public static let rows: [Row] = (try? load().rows) ?? []
}
