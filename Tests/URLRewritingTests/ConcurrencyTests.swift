import Foundation
import TestSupport
import Testing
import URLRewriting

/// One `Rewriter` shared by many tasks gives every task the same answers:
/// it is an immutable `Sendable` value and `rewrite(_:)` is pure.
@Suite struct ConcurrencyTests {
    @Test func sharedRewriterGivesTheSameResultsFromManyTasks() async throws {
        let rewriter = try Rewriter(configuration: RewriteConfiguration(rules: Rules.everyDialect))
        var generator = SeededGenerator(seed: 99)
        let urls = (0..<400).compactMap { index in
            URL(string: URLGenerator.url(around: Rules.everyDialect[index % Rules.everyDialect.count].hosts[0], using: &generator))
        }
        let expected = urls.map { rewriter.rewrite($0) }
        let results = await withTaskGroup(of: [RewriteResult].self) { group in
            for _ in 0..<8 {
                group.addTask { urls.map { rewriter.rewrite($0) } }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 8)
        for result in results {
            #expect(result == expected)
        }
    }
}
