import HTTPFields

/// Collects an upstream response's header fields from the lines libcurl
/// reports, holding them to the grammar the server holds requests to
/// (RFC 9112 §5), so that a relay never tells its client something other
/// than what the upstream said:
///
/// - an obs-fold continuation line is joined to the field before it with a
///   space (§5.2), never read as a field of its own;
/// - a name that is not a token (`Content-Length : 2`, `X(A)`) or a value
///   with a control byte (a bare CR that a client would read as a line
///   break) makes the whole response malformed;
/// - so do two different `Content-Length`s (RFC 9110 §8.6): which one the
///   body follows is a guess. Identical repeats are one length.
///
/// Names are lower-cased; repeated fields are joined with `, `.
struct ResponseFieldReader {
    /// The fields of the latest response (a redirect's or a `100
    /// Continue`'s are dropped when the next status line arrives).
    private(set) var fields: [String: String] = [:]
    private var lastName: String?

    /// Reads one line as libcurl passes it, with its line end.
    /// - Returns: Why the response is malformed, or `nil`.
    mutating func read(_ bytes: UnsafeRawBufferPointer) -> String? {
        var end = bytes.count
        if end > 0, bytes[end - 1] == 0x0A { end -= 1 }
        if end > 0, bytes[end - 1] == 0x0D { end -= 1 }
        let line = Substring(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
        guard !line.isEmpty else { return nil }
        if line.hasPrefix("HTTP/") {
            fields = [:]
            lastName = nil
            return nil
        }
        if let first = line.utf8.first, first == 0x20 || first == 0x09 {
            let continuation = Self.trimmingOWS(line)
            guard let lastName, HTTPFieldSyntax.isValidValue(continuation) else {
                return "a malformed continuation line in the response head"
            }
            if !continuation.isEmpty { fields[lastName, default: ""] += " " + continuation }
            return nil
        }
        guard let colon = line.firstIndex(of: ":") else { return "a response header line without a colon" }
        let name = line[..<colon].lowercased()
        let value = Self.trimmingOWS(line[line.index(after: colon)...])
        guard HTTPFieldSyntax.isToken(name) else { return "a malformed response header field name" }
        guard HTTPFieldSyntax.isValidValue(value) else { return "a control byte in the response header \(name)" }
        if let existing = fields[name] {
            if name == "content-length" {
                guard existing == value else { return "conflicting Content-Length values" }
            } else {
                fields[name] = existing + ", " + value
            }
        } else {
            fields[name] = value
        }
        lastName = name
        return nil
    }

    private static func trimmingOWS(_ text: Substring) -> String {
        var text = text
        while let first = text.utf8.first, first == 0x20 || first == 0x09 { text = text.dropFirst() }
        while let last = text.utf8.last, last == 0x20 || last == 0x09 { text = text.dropLast() }
        return String(text)
    }
}
