import Dispatch
import Foundation
import HTTPServer
import TestTraits
import Testing
import WebPBridge

@testable import WebPBridgeCLI

/// The servers' request log: records are formatted and written on the log's
/// own thread, and a stalled output drops records past the bound instead of
/// holding memory or the server's threads.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct RequestLogWriterTests {
    /// An output that stalls on its first call until released.
    final class StalledOutput: Sendable {
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let calls = Lock(0)
        let text = Lock("")

        func write(_ text: String) {
            let first = calls.withLock { count -> Bool in
                count += 1
                return count == 1
            }
            if first {
                entered.signal()
                gate.wait()
            }
            self.text.withLock { $0 += text }
        }
    }

    private func record(_ index: Int) -> HTTPRequestLog {
        HTTPRequestLog(
            method: .get, target: "/a/\(index).jpg", status: .ok, bodyBytes: 1_234,
            duration: .microseconds(800), remoteAddress: "127.0.0.1", completed: true)
    }

    @Test func recordsAreWrittenAsTheirLines() async throws {
        let output = StalledOutput()
        output.gate.signal()
        let writer = RequestLogWriter(output: output.write)
        writer.append(record(1))
        writer.append("a line as it is")
        try await blocking { writer.close() }
        #expect(output.text.withLock { $0 } == "127.0.0.1 GET /a/1.jpg 200 1234 0.8ms\na line as it is\n")
    }

    @Test func aStalledOutputDropsRecordsPastTheBound() async throws {
        var configuration = RequestLogWriter.Configuration()
        configuration.flushInterval = .seconds(3_600)
        configuration.maxPendingBytes = 10_000
        configuration.eagerFlushBytes = 1_000
        let output = StalledOutput()
        let writer = RequestLogWriter(configuration: configuration, output: output.write)
        // Enough to wake the writer, which then stalls in the output with them.
        let first = 1_000 / RequestLogWriter.charge(record(0)) + 1
        for index in 0..<first { writer.append(record(index)) }
        try await blocking { output.entered.wait() }
        let flood = 5_000
        for index in first..<(first + flood) { writer.append(record(index)) }
        output.gate.signal()
        try await blocking { writer.close() }
        let text = output.text.withLock { $0 }
        let lines = text.split(separator: "\n")
        let dropped = try #require(
            lines.last.flatMap { line in
                line.hasPrefix("… ") ? Int(line.dropFirst(2).prefix { $0.isNumber }) : nil
            })
        let kept = lines.count - 1 - first
        #expect(kept * RequestLogWriter.charge(record(0)) <= configuration.maxPendingBytes)
        #expect(kept > 0 && kept + dropped == flood, "\(kept) kept, \(dropped) dropped")
    }
}
