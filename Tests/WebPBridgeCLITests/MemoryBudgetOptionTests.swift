import BridgeProxy
import Foundation
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import WebPBridgeCLI

/// `--memory-budget` on `proxy` and `origin`: a size with a binary suffix,
/// split into the documented shares.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct MemoryBudgetOptionTests {
    @Test func sizesTakeBinarySuffixes() throws {
        #expect(try MemorySize.budget("64M", option: "--memory-budget") == 64 << 20)
        #expect(try MemorySize.budget("1g", option: "--memory-budget") == 1 << 30)
        #expect(try MemorySize.budget("32768k", option: "--memory-budget") == 32 << 20)
        #expect(try MemorySize.budget("16777216", option: "--memory-budget") == 16 << 20)
        for bad in ["", "M", "-64M", "64MB", "1.5G", "2048G", "１６M"] {
            #expect(throws: UsageError.self) { try MemorySize.budget(bad, option: "--memory-budget") }
        }
    }

    @Test func theProxySplitsItsBudgetAcrossItsCaches() throws {
        let arguments = ["--upstream", "http://a.test", "--memory-budget", "64M"]
        let command = try ProxyCommand(parsed: ParsedArguments(arguments, configuration: ProxyCommand.configuration))
        let io = CommandIO(
            writeOutput: { _ in }, writeError: { _ in }, readLine: { nil }, isTerminal: false, inputIsTerminal: false)
        let bridge = try command.makeBridge(io: io)
        #expect(bridge.configuration.memoryBudget.totalBytes == 64 << 20)
        let pipeline = bridge.configuration.pipeline.configuration
        #expect((pipeline.dataCache as? MemoryDataCache)?.capacity == 16 << 20, "1/4 of the budget")
        #expect(pipeline.negativeCacheBytes == 1 << 20, "1/64 of the budget")
        #expect(bridge.configuration.keepsTranscodes)
        #expect(bridge.configuration.memoryBudget.transcodeCacheBytes == 2 << 20, "1/32 of the budget")
        let off = try ProxyCommand(
            parsed: ParsedArguments(arguments + ["--no-transcode-cache"], configuration: ProxyCommand.configuration))
        #expect(try !off.makeBridge(io: io).configuration.keepsTranscodes)
        let defaults = try ProxyCommand(
            parsed: ParsedArguments(["--upstream", "http://a.test"], configuration: ProxyCommand.configuration))
        #expect(defaults.memoryBudget.totalBytes == 256 << 20)
        let budget = defaults.memoryBudget
        let shares = [
            budget.dataCacheBytes, budget.hitMemoBytes, budget.failedVariantsBytes, budget.rewrittenPagesBytes,
            budget.transcodeCacheBytes, budget.requestBodyBytes, budget.passthroughBodyBytes,
        ]
        #expect(shares.reduce(0, +) <= budget.totalBytes, "the shares fit the budget")
    }

    @Test func theOriginSplitsItsBudgetAcrossItsCaches() throws {
        let folder = try TemporaryDirectory()
        let arguments = ["--root", folder.url.path, "--memory-budget", "128M"]
        let command = try OriginCommand(parsed: ParsedArguments(arguments, configuration: OriginCommand.configuration))
        let origin = try command.makeOrigin()
        #expect(origin.configuration.memoryBudget.totalBytes == 128 << 20)
        #expect(origin.configuration.variantCacheBytes == 64 << 20, "1/2 of the budget")
        #expect(origin.configuration.sourceCacheBytes == 16 << 20, "1/8 of the budget")
    }
}
