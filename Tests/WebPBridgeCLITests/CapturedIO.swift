import Foundation
import WebPBridge
import WebPBridgeCLI

/// A `CommandIO` that records what a command writes, for in-process tests.
final class CapturedIO: Sendable {
    private let output = Lock("")
    private let error = Lock("")
    private let input: Lock<[String]>

    init(stdin lines: [String] = []) {
        input = Lock(lines)
    }

    var stdout: String { output.withLock { $0 } }
    var stderr: String { error.withLock { $0 } }

    var io: CommandIO {
        CommandIO(
            writeOutput: { text in self.output.withLock { $0 += text } },
            writeError: { text in self.error.withLock { $0 += text } },
            readLine: { self.input.withLock { $0.isEmpty ? nil : $0.removeFirst() } },
            isTerminal: false,
            inputIsTerminal: false)
    }

    /// Runs `webp-bridge` in-process with `arguments`.
    static func run(_ arguments: [String], stdin: [String] = []) async -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let captured = CapturedIO(stdin: stdin)
        let status = await WebPBridge.run(arguments, io: captured.io)
        return (status, captured.stdout, captured.stderr)
    }
}
