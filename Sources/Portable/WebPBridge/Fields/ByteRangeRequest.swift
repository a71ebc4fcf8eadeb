/// A `Range` request field (RFC 9110 §14.2) resolved against the length of
/// the representation it asks a part of: the one place that reads it.
///
/// Only single ranges of the `bytes` unit are served: `bytes=0-99` (first and
/// last position), `bytes=100-` (from a position to the end) and `bytes=-100`
/// (the last 100 bytes). A field that asks for several ranges is answered
/// with the whole representation (``Resolution/whole``), which RFC 9110
/// allows (a server may ignore `Range`): a `multipart/byteranges` body buys
/// a client little over separate requests. A field that does not parse, or
/// names another unit, is ignored the same way, as §14.2 requires. Linear in
/// the field's length; positions too large for an `Int` are read as "beyond
/// any representation", never trapped on.
public enum ByteRangeRequest {
    /// What to send for a `Range` field.
    public enum Resolution: Sendable, Equatable {
        /// The whole representation, with `200`: no range, several ranges,
        /// another unit, or a field that does not parse.
        case whole
        /// These bytes (offsets into the representation, both ends
        /// included), with `206` and `Content-Range`.
        case range(ClosedRange<Int>)
        /// No byte of the representation is in the range: `416`, with
        /// `Content-Range: bytes */length`.
        case unsatisfiable
    }

    /// Resolves `value`, a `Range` field's value, against a representation
    /// of `length` bytes.
    /// - Parameters:
    ///   - value: The field's value, e.g. `bytes=0-99`.
    ///   - length: The representation's length in bytes.
    /// - Returns: The bytes to send, the whole representation, or that the
    ///   range cannot be satisfied.
    public static func resolve(_ value: String, length: Int) -> Resolution {
        var bytes = Substring(value).utf8[...]
        let unit = "bytes=".utf8
        guard bytes.count > unit.count,
            zip(bytes.prefix(unit.count), unit).allSatisfy({ asciiLowercased($0) == $1 })
        else { return .whole }
        bytes = bytes.dropFirst(unit.count)
        // One range only; the list separator may carry optional whitespace.
        guard !bytes.contains(UInt8(ascii: ",")) else { return .whole }
        bytes = trimmed(bytes)
        guard let dash = bytes.firstIndex(of: UInt8(ascii: "-")) else { return .whole }
        let firstText = bytes[..<dash]
        let lastText = bytes[bytes.index(after: dash)...]
        if firstText.isEmpty {
            // bytes=-N: the last N bytes.
            guard let suffix = position(lastText) else { return .whole }
            guard suffix > 0, length > 0 else { return .unsatisfiable }
            return .range(max(0, length - suffix)...(length - 1))
        }
        guard let first = position(firstText) else { return .whole }
        var last = Int.max
        if !lastText.isEmpty {
            guard let given = position(lastText) else { return .whole }
            // A last position before the first makes the field invalid: ignored.
            guard given >= first else { return .whole }
            last = given
        }
        guard first < length else { return .unsatisfiable }
        return .range(first...min(last, length - 1))
    }

    /// Decimal digits as a position; `Int.max` when they overflow, `nil` when
    /// they are not all digits.
    private static func position(_ text: Substring.UTF8View) -> Int? {
        guard !text.isEmpty else { return nil }
        var value = 0
        for byte in text {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowedAgain) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            value = overflowed || overflowedAgain ? Int.max : sum
        }
        return value
    }

    private static func trimmed(_ text: Substring.UTF8View) -> Substring.UTF8View {
        var text = text
        while let first = text.first, first == 0x20 || first == 0x09 { text = text.dropFirst() }
        while let last = text.last, last == 0x20 || last == 0x09 { text = text.dropLast() }
        return text
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}
