/// What the server reports about one finished request, through
/// ``HTTPServer/init(configuration:handler:requestLog:)``'s `requestLog`.
public struct HTTPRequestLog: Sendable, Equatable, CustomStringConvertible {
    /// The request method.
    public var method: HTTPMethod
    /// The raw request target.
    public var target: String
    /// The status sent, or `nil` when no response was sent (the client went
    /// away, or the connection timed out, before the answer).
    public var status: HTTPStatus?
    /// The response body bytes (0 for `HEAD`).
    public var bodyBytes: UInt64
    /// From the end of the request line to the end of the response.
    public var duration: Duration
    /// The client's address, if known.
    public var remoteAddress: String?
    /// Whether the response was sent completely.
    public var completed: Bool

    /// Creates a log record.
    /// - Parameters:
    ///   - method: The request method.
    ///   - target: The raw request target.
    ///   - status: The status sent, if any.
    ///   - bodyBytes: The response body bytes.
    ///   - duration: The request's duration.
    ///   - remoteAddress: The client's address.
    ///   - completed: Whether the response was sent completely.
    public init(
        method: HTTPMethod, target: String, status: HTTPStatus?, bodyBytes: UInt64,
        duration: Duration, remoteAddress: String?, completed: Bool
    ) {
        self.method = method
        self.target = target
        self.status = status
        self.bodyBytes = bodyBytes
        self.duration = duration
        self.remoteAddress = remoteAddress
        self.completed = completed
    }

    /// One line for a log, e.g. `127.0.0.1 GET /a.jpg 200 1234 0.8ms`;
    /// `-` stands for a missing status, `aborted` marks an unfinished reply.
    /// Control bytes and backslashes in the method and target are written
    /// as `\xHH`, so a client cannot forge log lines or drive a terminal.
    public var description: String {
        var line: [UInt8] = []
        line.reserveCapacity(target.utf8.count + (remoteAddress?.utf8.count ?? 1) + 48)
        append(to: &line)
        return String(decoding: line, as: UTF8.self)
    }

    /// Appends ``description``'s UTF-8 to `line`: a log writer gathering
    /// many lines into one buffer writes each byte once, with no string
    /// per line or per piece (those were most of the cost of logging a
    /// cache hit, under callgrind: bench/callgrind_http.py).
    /// - Parameter line: Where the line goes (no newline is added).
    public func append(to line: inout [UInt8]) {
        // Tenths of a millisecond in integers: formatting a Double was a
        // noticeable part of logging a cached answer.
        let components = duration.components
        let tenths =
            max(0, components.seconds) * 10_000 + (max(0, components.attoseconds) + 50_000_000_000_000)
            / 100_000_000_000_000
        line.appendUTF8(of: remoteAddress ?? "-")
        line.append(UInt8(ascii: " "))
        Self.appendEscaped(method.rawValue, to: &line)
        line.append(UInt8(ascii: " "))
        Self.appendEscaped(target, to: &line)
        line.append(UInt8(ascii: " "))
        if let status { Self.appendDecimal(UInt64(max(0, status.code)), to: &line) } else { line.append(0x2D) }
        line.append(UInt8(ascii: " "))
        Self.appendDecimal(bodyBytes, to: &line)
        line.append(UInt8(ascii: " "))
        Self.appendDecimal(UInt64(tenths / 10), to: &line)
        line.append(UInt8(ascii: "."))
        Self.appendDecimal(UInt64(tenths % 10), to: &line)
        line.appendUTF8(of: completed ? "ms" : "ms aborted")
    }

    /// `text` with every byte below 0x20, DEL and `\` as `\xHH`.
    static func escaped(_ text: String) -> String {
        var escaped: [UInt8] = []
        appendEscaped(text, to: &escaped)
        return String(decoding: escaped, as: UTF8.self)
    }

    /// Appends `text`'s UTF-8 to `line`, escaped as ``escaped(_:)`` says
    /// (bytes of multi-byte characters never need it).
    private static func appendEscaped(_ text: String, to line: inout [UInt8]) {
        let clean =
            text.utf8.withContiguousStorageIfAvailable { bytes in !bytes.contains(where: needsEscape) }
            ?? !text.utf8.contains(where: needsEscape)
        guard !clean else {
            line.appendUTF8(of: text)
            return
        }
        for byte in text.utf8 {
            guard needsEscape(byte) else {
                line.append(byte)
                continue
            }
            line.append(UInt8(ascii: "\\"))
            line.append(UInt8(ascii: "x"))
            line.append(hexDigit(byte >> 4))
            line.append(hexDigit(byte & 15))
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }

    /// Appends `value` in decimal.
    private static func appendDecimal(_ value: UInt64, to line: inout [UInt8]) {
        var divisor: UInt64 = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        repeat {
            line.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        } while divisor > 0
    }

    private static func needsEscape(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F || byte == 0x5C }
}
