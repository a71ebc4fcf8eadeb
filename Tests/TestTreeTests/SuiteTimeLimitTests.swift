import Foundation
import TestTraits
import Testing

/// The test tree keeps its own rules: every suite has a time limit, so a
/// hang fails instead of blocking CI. Reads the sources of `Tests/`.
@Suite(.timeLimit(.suiteBound))
struct SuiteTimeLimitTests {
    /// `Tests/`, found from this file's path.
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// A top-level declaration in a test file: its kind, name, the attribute
    /// text just above it, and whether its body holds tests.
    struct Declaration {
        var file: String
        var kind: String
        var name: String
        var attributes: String
        var holdsTests: Bool
    }

    static func declarations() throws -> [Declaration] {
        let files =
            FileManager.default.enumerator(at: testsFolder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        let pattern = /^(?:@Suite.*\s)?(?:(?:public|final|private)\s+)*(struct|class|enum|extension)\s+(\w+)/
        var found: [Declaration] = []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            let starts = lines.indices.filter { lines[$0].firstMatch(of: pattern) != nil }
            for (index, start) in starts.enumerated() {
                guard let match = lines[start].firstMatch(of: pattern) else { continue }
                let end = index + 1 < starts.count ? starts[index + 1] : lines.count
                // The attribute lines directly above: stop at a blank line,
                // a comment, or the end of the previous declaration.
                var above = start - 1
                while above >= 0, !lines[above].isEmpty, !lines[above].hasPrefix("//"), !lines[above].hasPrefix("}"),
                    !lines[above].hasPrefix("import")
                {
                    above -= 1
                }
                found.append(
                    Declaration(
                        file: file.lastPathComponent, kind: String(match.1), name: String(match.2),
                        attributes: lines[(above + 1)...start].joined(separator: "\n"),
                        holdsTests: lines[start..<end].contains { $0.contains("@Test") }))
            }
        }
        return found
    }

    @Test func everySuiteHasATimeLimit() throws {
        let all = try Self.declarations()
        #expect(all.contains { $0.holdsTests }, "no tests found under \(Self.testsFolder.path)")
        let limited = Set(all.filter { $0.kind != "extension" && $0.attributes.contains(".timeLimit(") }.map(\.name))
        // Suites nested in an extension inherit the extended suite's limit.
        let unlimited = all.filter { $0.holdsTests && !limited.contains($0.name) }
            .map { "\($0.file): \($0.kind) \($0.name)" }.sorted()
        #expect(unlimited == [], "suites with tests and no .timeLimit")
    }
}
