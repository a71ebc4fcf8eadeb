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
    /// Reads up to the given number of bytes of standard input, as they are;
    /// `nil` at the end (for commands that stream documents, not lines).
    public var readBytes: @Sendable (Int) -> [UInt8]?
    /// Writes bytes to standard output as they are (a document in any encoding).
    public var writeBytes: @Sendable ([UInt8]) -> Void

    /// Creates the streams; without `readBytes` standard input is empty to
    /// byte readers, and without `writeBytes` bytes go to `writeOutput` as UTF-8.
    public init(
        writeOutput: @escaping @Sendable (String) -> Void,
        writeError: @escaping @Sendable (String) -> Void,
        readLine: @escaping @Sendable () -> String?,
        isTerminal: Bool,
        inputIsTerminal: Bool,
        readBytes: @escaping @Sendable (Int) -> [UInt8]? = { _ in nil },
        writeBytes: (@Sendable ([UInt8]) -> Void)? = nil
    ) {
        self.writeOutput = writeOutput
        self.writeError = writeError
        self.readLine = readLine
        self.isTerminal = isTerminal
        self.inputIsTerminal = inputIsTerminal
        self.readBytes = readBytes
        self.writeBytes = writeBytes ?? { bytes in writeOutput(String(decoding: bytes, as: UTF8.self)) }
    }

    /// The process's own standard streams.
    public static var standard: CommandIO {
        CommandIO(
            writeOutput: { text in writeAll(text, to: STDOUT_FILENO) },
            writeError: { text in writeAll(text, to: STDERR_FILENO) },
            readLine: { Swift.readLine(strippingNewline: true) },
            isTerminal: isatty(STDOUT_FILENO) == 1,
            inputIsTerminal: isatty(STDIN_FILENO) == 1,
            readBytes: { count in readSome(count, from: STDIN_FILENO) },
            writeBytes: { bytes in writeAll(bytes, to: STDOUT_FILENO) })
    }

    /// Writes one line to standard output.
    public func print(_ line: String) { writeOutput(line + "\n") }

    /// Writes one line to standard error.
    public func printError(_ line: String) { writeError(line + "\n") }
}

/// Up to `count` bytes from `descriptor`; `nil` at the end or on an error.
private func readSome(_ count: Int, from descriptor: Int32) -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: max(1, count))
    while true {
        let received = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if received < 0, errno == EINTR { continue }
        guard received > 0 else { return nil }
        return Array(buffer.prefix(received))
    }
}

/// Unbuffered, so that output from concurrent tasks and a crash-free exit
/// never lose or interleave partial lines.
private func writeAll(_ text: String, to descriptor: Int32) {
    writeAll(Array(text.utf8), to: descriptor)
}

private func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
    var bytes = bytes
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
