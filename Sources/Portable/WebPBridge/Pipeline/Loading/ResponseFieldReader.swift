/// Collects an upstream response's header section from the lines libcurl
/// reports, holding it to the grammar the server holds requests to (RFC
/// 9112 §5) and to a size bound, so that a relay never tells its client
/// something other than what the upstream said, nor more than it can carry:
///
/// - the header section ends at its blank line. libcurl also reports
///   interim answers (`100 Continue`: their fields are dropped and the next
///   status line starts over) and a chunked body's trailer fields, which are
///   not header fields (RFC 9110 §6.5.1): every line after the final
///   section is dropped, so a trailer can never add to, override or clear a
///   header field;
/// - fields are kept as sent: in order, repeated names apart (`Set-Cookie`
///   is never combined), values byte for byte;
/// - an obs-fold continuation line is joined to the field before it with a
///   space (§5.2), never read as a field of its own;
/// - a name that is not a token (`Content-Length : 2`, `X(A)`) or a value
///   with a control byte (a bare CR that a client would read as a line
///   break) makes the whole response malformed;
/// - so do two different `Content-Length`s (RFC 9110 §8.6): which one the
///   body follows is a guess;
/// - a section beyond ``HTTPFieldList/Limits`` is refused rather than cut.
struct ResponseFieldReader {
    /// Why the response cannot be used.
    enum Refusal: Equatable {
        /// The head breaks HTTP's grammar; the text says how.
        case malformed(String)
        /// The header section passed the limits; the text says which.
        case tooLarge(String)
    }

    private enum State {
        /// Before a status line: at the start, or after an interim answer.
        case awaitingStatus
        /// Inside a header section; `interim` for a 1xx answer's.
        case inSection(interim: Bool)
        /// The final header section ended: what follows is body or trailers.
        case ended
    }

    private let limits: HTTPFieldList.Limits
    private var state = State.awaitingStatus
    private var section: [HTTPFieldList.Field] = []
    private var sectionBytes = 0

    /// Creates a reader that refuses a section beyond `limits`.
    init(limits: HTTPFieldList.Limits) { self.limits = limits }

    /// The final response's header section, as far as it has arrived.
    var fields: HTTPFieldList { HTTPFieldList(fields: section) }

    /// The final response's declared `Content-Length`, once its section ended.
    var declaredLength: Int? {
        guard case .ended = state else { return nil }
        return section.first { HTTPFieldList.namesMatch($0.name, "Content-Length") }.flatMap { Int($0.value) }
    }

    /// Reads one line as libcurl passes it, with its line end.
    /// - Returns: Why the response cannot be used, or `nil`.
    mutating func read(_ bytes: UnsafeRawBufferPointer) -> Refusal? {
        var end = bytes.count
        if end > 0, bytes[end - 1] == 0x0A { end -= 1 }
        if end > 0, bytes[end - 1] == 0x0D { end -= 1 }
        let line = UnsafeRawBufferPointer(rebasing: bytes[..<end])
        switch state {
        case .ended:
            return nil
        case .awaitingStatus:
            guard !line.isEmpty else { return nil }
            guard line.starts(with: "HTTP/".utf8) else { return .malformed("a response without a status line") }
            section = []
            sectionBytes = 0
            state = .inSection(interim: Self.isInterim(statusLine: line))
            return nil
        case .inSection(let interim):
            guard !line.isEmpty else {
                state = interim ? .awaitingStatus : .ended
                return nil
            }
            return readField(line)
        }
    }

    private mutating func readField(_ line: UnsafeRawBufferPointer) -> Refusal? {
        sectionBytes += line.count + 2
        if let first = line.first, first == 0x20 || first == 0x09 {
            let continuation = Self.trimmingOWS(line)
            guard let last = section.last, HTTPFieldSyntax.isValidValue(bytes: continuation) else {
                return .malformed("a malformed continuation line in the response head")
            }
            if !continuation.isEmpty {
                section[section.count - 1] = HTTPFieldList.Field(
                    name: last.name, valueBytes: last.valueBytes + [0x20] + continuation)
            }
            return checkLimits()
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            return .malformed("a response header line without a colon")
        }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: line[..<colon]), as: UTF8.self)
        let value = Self.trimmingOWS(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...]))
        guard HTTPFieldSyntax.isToken(name) else { return .malformed("a malformed response header field name") }
        guard HTTPFieldSyntax.isValidValue(bytes: value) else {
            return .malformed("a control byte in the response header \(name)")
        }
        let field = HTTPFieldList.Field(name: name, valueBytes: value)
        if HTTPFieldList.namesMatch(name, "Content-Length"),
            let other = section.first(where: { HTTPFieldList.namesMatch($0.name, name) }), other != field
        {
            return .malformed("conflicting Content-Length values")
        }
        section.append(field)
        return checkLimits()
    }

    private func checkLimits() -> Refusal? {
        guard !limits.admits(count: section.count, bytes: sectionBytes) else { return nil }
        return .tooLarge(
            "a response header section over the limit of \(limits.maxCount) fields or \(limits.maxBytes) bytes"
                + " (\(section.count) fields, \(sectionBytes) bytes so far)")
    }

    /// Whether a status line is an interim (1xx) answer's.
    private static func isInterim(statusLine line: UnsafeRawBufferPointer) -> Bool {
        guard let space = line.firstIndex(of: 0x20), space + 1 < line.count else { return false }
        return line[space + 1] == UInt8(ascii: "1")
    }

    private static func trimmingOWS(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var lower = 0
        var upper = bytes.count
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return Array(bytes[lower..<upper])
    }
}
