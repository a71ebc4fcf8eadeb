internal import CMicroHTTPD
import WebPBridge

/// A request's header fields as libmicrohttpd stored them, and whether the
/// bytes they were parsed from formed a well-formed head.
///
/// libmicrohttpd parses the head in place: it overwrites each line's CR LF
/// with two NULs and each field's colon with one, and hands out pointers
/// into that buffer. Two malformations leave no trace in the strings it
/// returns: a NUL inside a line cuts the line there (`X-A: foo\0bar` is read
/// as `foo`, `GET /h.jpg\0.png` as `/h.jpg`), and an obs-fold continuation
/// line is appended to the field's *name* (`Ho:` + ` st: evil` becomes a
/// field named `Host: evil`; `X-A: v` + ` b` becomes `X-Ab: v`), which moves
/// the name out of the line. Both show in the layout: in a well-formed head
/// each name starts exactly where the previous line's CR LF ended, and each
/// line ends in two NULs. So the fields are walked in order (libmicrohttpd
/// keeps them in arrival order) and every position is checked against that
/// layout; a bare LF, which ends a line with one NUL, fails it as well.
///
/// Only bytes inside the head already received are read: each pointer is
/// compared before anything at or after it is read, and the first mismatch
/// ends the checks.
struct MHDRequestHead {
    /// Every field, duplicates included, in arrival order.
    var fields: HTTPFieldList
    /// `false` when the head held a NUL or a bare LF inside a line, or an
    /// obs-fold.
    var isWellFormed: Bool
    /// `true` when a `Transfer-Encoding` value had spaces or tabs after it.
    /// RFC 9110 drops them, but libmicrohttpd, which finds where the body
    /// ends, compares the value as sent: it read `chunked` followed by a tab
    /// as no coding it knew and waited for the body until the connection
    /// closed, taking the requests after it as that body. Such a request is
    /// refused, so both read one framing. (A `Content-Length` it cannot
    /// read, padded or past 64 bits, libmicrohttpd refuses itself before
    /// the server sees the head.)
    var hasPaddedFraming: Bool

    /// Reads the fields of the request on `connection` during the first
    /// call of the access handler.
    /// - Parameters:
    ///   - version: The version pointer libmicrohttpd passed to the access
    ///     handler: 8 bytes (`HTTP/1.1`, checked by libmicrohttpd) in the
    ///     request line, followed by its line end.
    ///   - targetEnd: Where the target's first NUL was when the request
    ///     line arrived (the address of the target plus its `strlen`).
    static func read(_ connection: OpaquePointer, version: UnsafePointer<CChar>, targetEnd: Int) -> MHDRequestHead {
        // The target ends at the space before the version, which
        // libmicrohttpd overwrote with a NUL; an earlier NUL came from the client.
        var walk = Walk(
            expected: version + 10,
            wellFormed: targetEnd + 1 == Int(bitPattern: version) && version[8] == 0 && version[9] == 0)
        // Counted first (no callback: libmicrohttpd only counts), so the fields are stored in one allocation.
        walk.fields.reserveCapacity(max(0, Int(MHD_get_connection_values_n(connection, .HEADER_KIND, nil, nil))))
        withUnsafeMutablePointer(to: &walk) { pointer in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, collectField, pointer)
        }
        if walk.wellFormed, !walk.fields.isEmpty, walk.expected[0] != 0 {
            // The last field's line did not end where its value did.
            walk.wellFormed = false
        }
        return MHDRequestHead(
            fields: walk.fields, isWellFormed: walk.wellFormed, hasPaddedFraming: walk.paddedFraming)
    }

    /// The state of the walk over the fields.
    fileprivate struct Walk {
        /// Where the next field's name must start.
        var expected: UnsafePointer<CChar>
        var wellFormed: Bool
        var fields = HTTPFieldList()
        var paddedFraming = false

        mutating func add(name: UnsafePointer<CChar>, _ nameSize: Int, value: UnsafePointer<CChar>?, _ valueSize: Int) {
            let value = value ?? name + nameSize
            let valueBytes = Self.withoutTrailingOWS(value, valueSize)
            // Nearly every value is ASCII, and so UTF-8 as it stands: made text
            // directly, without the byte-for-byte check of `Field(name:valueBytes:)`,
            // generic across the module boundary (5-7% of a cache hit's CPU, perf).
            let field =
                Self.isASCII(valueBytes)
                ? HTTPFieldList.Field(
                    name: Self.text(name, nameSize), value: String(decoding: valueBytes, as: UTF8.self))
                : HTTPFieldList.Field(name: Self.text(name, nameSize), valueBytes: valueBytes)
            fields.add(field)
            if valueBytes.count != valueSize, HTTPFieldList.namesMatch(field.name, "Transfer-Encoding") {
                paddedFraming = true
            }
            guard wellFormed else { return }
            // The name in place, its colon overwritten; the value in the same
            // line (libmicrohttpd skipped only spaces and tabs before it);
            // the line ended by CR LF, both overwritten.
            guard name == expected, name[nameSize] == 0, value > name + nameSize, value[valueSize] == 0,
                value[valueSize + 1] == 0
            else {
                wellFormed = false
                return
            }
            expected = value + valueSize + 2
        }

        private static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
            for byte in bytes where byte >= 0x80 { return false }
            return true
        }

        private static func text(_ pointer: UnsafePointer<CChar>, _ count: Int) -> String {
            String(decoding: UnsafeRawBufferPointer(start: pointer, count: count), as: UTF8.self)
        }

        /// The value's bytes as sent, without the whitespace after it, which
        /// RFC 9112 §5 says is not part of it (libmicrohttpd removes only
        /// the leading whitespace).
        private static func withoutTrailingOWS(_ pointer: UnsafePointer<CChar>, _ count: Int) -> UnsafeRawBufferPointer
        {
            let bytes = UnsafeRawBufferPointer(start: pointer, count: count)
            var end = count
            while end > 0, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
            return UnsafeRawBufferPointer(rebasing: bytes[..<end])
        }
    }
}

/// Adds one field to the walk its context points to.
private let collectField: MHD_KeyValueIteratorN = { context, _, name, nameSize, value, valueSize in
    guard let context, let name else { return .YES }
    context.assumingMemoryBound(to: MHDRequestHead.Walk.self).pointee.add(
        name: name, nameSize, value: value, valueSize)
    return .YES
}
