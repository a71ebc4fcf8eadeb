import BridgeProxy
import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// Passed-through answers are held in memory until sent, within their
/// share of the memory budget: clients that read slowly each held a copy
/// of a large answer, 16 of them on a 60 MiB answer taking the bridge to
/// 1,077 MiB of resident memory under the default 256 MiB budget.
@Suite(.timeLimit(.suiteBound))
struct HeldAnswersTests {
    /// Answers every request with `bytes` bytes, admitted in pieces of
    /// 64 KiB as they "arrive" when `inPieces` (stopping at the first the
    /// request's ``BodyAdmission`` refuses, as a real loader does), or
    /// only whole.
    struct LargeAnswers: DataLoading {
        let bytes: Int
        var inPieces = false

        func load(_ request: DataRequest, onChunk: (@Sendable (Data) -> Void)?) async throws(DataLoadingError)
            -> DataResponse
        {
            let body = Data(repeating: 7, count: bytes)
            if inPieces, let admission = request.bodyAdmission {
                for start in stride(from: 0, to: bytes, by: 64 << 10) {
                    let piece = body[start..<min(bytes, start + (64 << 10))]
                    guard admission.admit(piece.count) else { throw DataLoadingError(.tooLarge, "not admitted") }
                    onChunk?(piece)
                }
            }
            return DataResponse(
                url: request.url, statusCode: 200, headers: ["Content-Type": "application/octet-stream"], body: body)
        }
    }

    @Test(arguments: [false, true])
    func answersBeyondTheirShareAre503UntilTheHeldOnesAreSent(inPieces: Bool) async throws {
        let fixture = try BridgeFixture()
        // A 4 MiB budget gives answers being sent 1 MiB: two of 400 KB fit, a third does not.
        let bridge = try fixture.bridge(loader: LargeAnswers(bytes: 400_000, inPieces: inPieces)) {
            $0.memoryBudget = BridgeProxy.MemoryBudget(totalBytes: 4 << 20)
        }
        #expect(bridge.configuration.memoryBudget.passthroughBodyBytes == 1 << 20)
        var held: [HTTPResponse] = []
        for index in 0..<2 {
            let response = await bridge.handle(.webView("/file-\(index).bin"))
            #expect(response.status == .ok)
            #expect(response.bodyData.count == 400_000)
            held.append(response)
        }
        let refused = await bridge.handle(.webView("/file-2.bin"))
        #expect(refused.status == .serviceUnavailable)
        #expect(refused.headers["Retry-After"] == "1")
        #expect(refused.bodyText.contains("too many answers"), "\(refused.bodyText)")
        // Sent and freed: their share comes back.
        held.removeAll()
        let served = await bridge.handle(.webView("/file-3.bin"))
        #expect(served.status == .ok)
        #expect(served.bodyData.count == 400_000)
    }

    @Test func anAnswerLargerThanTheWholeShareSaysSo() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge(loader: LargeAnswers(bytes: 2 << 20)) {
            $0.memoryBudget = BridgeProxy.MemoryBudget(totalBytes: 4 << 20)
        }
        let refused = await bridge.handle(.webView("/big.bin"))
        #expect(refused.status == .serviceUnavailable)
        #expect(refused.bodyText.contains("--memory-budget"), "\(refused.bodyText)")
    }

    @Test func theSharesFitTheBudget() {
        let budget = BridgeProxy.MemoryBudget()
        let shares = [
            budget.dataCacheBytes, budget.hitMemoBytes, budget.failedVariantsBytes, budget.rewrittenPagesBytes,
            budget.transcodeCacheBytes, budget.plannedRequestsBytes, budget.requestBodyBytes,
            budget.passthroughBodyBytes,
        ]
        #expect(shares.reduce(0, +) <= budget.totalBytes)
        #expect(budget.requestBodyBytes == 64 << 20 && budget.passthroughBodyBytes == 64 << 20)
    }
}
