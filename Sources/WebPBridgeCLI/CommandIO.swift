#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command reads and writes, injected so that tests capture output.
public struct CommandIO: Sendable {
    /// Writes text to standard output.
    public var writeOutput: @Sendable (String) -> Void
    /// Writes text to standard error.
    public var writeError: @Sendable (String) -> Void
    /// Reads standard input line by line; `nil` at the end.
    public var readLine: @Sendable () -> String?
    /// Whether standard output is a terminal (for progress lines).
    public var isTerminal: Bool
    /// Whether standard input is a terminal (then no URLs are read from it).
    public var inputIsTerminal: Bool

    public init(
        writeOutput: @escaping @Sendable (String) -> Void,
        writeError: @escaping @Sendable (String) -> Void,
        readLine: @escaping @Sendable () -> String?,
        isTerminal: Bool,
        inputIsTerminal: Bool
    ) {
        self.writeOutput = writeOutput
        self.writeError = writeError
        self.readLine = readLine
        self.isTerminal = isTerminal
        self.inputIsTerminal = inputIsTerminal
    }

    /// The process's own standard streams.
    public static var standard: CommandIO {
        CommandIO(
            writeOutput: { text in writeAll(text, to: STDOUT_FILENO) },
            writeError: { text in writeAll(text, to: STDERR_FILENO) },
            readLine: { Swift.readLine(strippingNewline: true) },
            isTerminal: isatty(STDOUT_FILENO) == 1,
            inputIsTerminal: isatty(STDIN_FILENO) == 1)
    }

    /// Writes one line to standard output.
    public func print(_ line: String) { writeOutput(line + "\n") }

    /// Writes one line to standard error.
    public func printError(_ line: String) { writeError(line + "\n") }
}

/// Unbuffered, so that output from concurrent tasks and a crash-free exit
/// never lose or interleave partial lines.
private func writeAll(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)
    var offset = 0
    bytes.withUnsafeMutableBytes { buffer in
        guard let base = buffer.baseAddress else { return }
        while offset < buffer.count {
            let written = write(descriptor, base + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
