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
        var line = ""
        line.reserveCapacity(target.utf8.count + (remoteAddress?.utf8.count ?? 1) + 48)
        append(to: &line)
        return line
    }

    /// Appends ``description`` to `text`, with no string of its own: a log
    /// writer gathering many lines into one buffer copies each piece once.
    /// - Parameter text: Where the line goes (no newline is added).
    public func append(to text: inout String) {
        // Tenths of a millisecond in integers: formatting a Double was a
        // noticeable part of logging a cached answer; so was building the
        // line by interpolation, a string per piece (callgrind).
        let components = duration.components
        let tenths =
            max(0, components.seconds) * 10_000 + (max(0, components.attoseconds) + 50_000_000_000_000)
            / 100_000_000_000_000
        text += remoteAddress ?? "-"
        text += " "
        Self.appendEscaped(method.rawValue, to: &text)
        text += " "
        Self.appendEscaped(target, to: &text)
        text += " "
        if let status { text += String(status.code) } else { text += "-" }
        text += " "
        text += String(bodyBytes)
        text += " "
        text += String(tenths / 10)
        text += "."
        text += String(tenths % 10)
        text += completed ? "ms" : "ms aborted"
    }

    /// `text` with every byte below 0x20, DEL and `\` as `\xHH`; `text`
    /// itself (no copy) in the usual case of nothing to escape.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        appendEscaped(text, to: &escaped)
        return escaped
    }

    /// Appends `text` to `output`, escaped as ``escaped(_:)`` says.
    private static func appendEscaped(_ text: String, to output: inout String) {
        let clean =
            text.utf8.withContiguousStorageIfAvailable { bytes in !bytes.contains(where: needsEscape) }
            ?? !text.utf8.contains(where: needsEscape)
        guard !clean else {
            output += text
            return
        }
        for scalar in text.unicodeScalars {
            guard scalar.isASCII, needsEscape(UInt8(scalar.value)) else {
                output.unicodeScalars.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            output += "\\x" + (hex.count == 1 ? "0" + hex : hex)
        }
    }

    private static func needsEscape(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F || byte == 0x5C }
}
