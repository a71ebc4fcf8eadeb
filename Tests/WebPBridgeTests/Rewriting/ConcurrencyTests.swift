import Foundation
import TestTraits
import Testing
import WebPBridge

/// One `Rewriter` shared by many tasks gives every task the same answers:
/// it is an immutable `Sendable` value and `rewrite(_:)` is pure.
@Suite(.timeLimit(.suiteBound)) struct ConcurrencyTests {
    @Test func sharedRewriterGivesTheSameResultsFromManyTasks() async throws {
        let rewriter = try Rewriter(configuration: RewriteConfiguration(rules: Rules.everyDialect))
        var generator = SeededGenerator(seed: 99)
        let urls = (0..<400).compactMap { index in
            URL(
                string: URLGenerator.url(
                    around: Rules.everyDialect[index % Rules.everyDialect.count].hosts[0], using: &generator))
        }
        let expected = urls.map { rewriter.rewrite($0) }
        let results = await withTaskGroup(of: [RewriteResult].self) { group in
            for _ in 0..<8 {
                group.addTask { urls.map { rewriter.rewrite($0) } }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        // Eight results by construction; what can differ is a task's answer for a URL.
        for (task, result) in results.enumerated() {
            let differing = urls.indices.filter { result[$0] != expected[$0] }.map { urls[$0] }
            #expect(differing.isEmpty, "task \(task) rewrote \(differing.count) URLs otherwise: \(differing.prefix(3))")
        }
    }
}
