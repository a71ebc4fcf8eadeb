/// `Accept` (RFC 9110 §12.5.1): the media ranges a client lists, each with
/// its quality, parsed once.
///
/// A range is `type/subtype`, `type/*` or `*/*`, compared in any case; its
/// parameters other than `q` are ignored. A `q` that is not a number from
/// 0 to 1 counts as 0, so a doubtful client is treated as refusing the type
/// rather than sent bytes it may not show. A comma or semicolon inside a
/// quoted string (`"…"`, with `\` escaping the next byte; an unterminated
/// one runs to the end of the header) separates nothing, as RFC 9110 §5.6.4
/// reads it: `text/html;x="a, image/webp"` names no WebP. Parsing is linear
/// in the header's length.
public struct AcceptHeader: Sendable, Hashable {
    /// One media range and its quality.
    public struct MediaRange: Sendable, Hashable {
        /// `type/subtype` lower-cased, without parameters: `image/webp`,
        /// `image/*`, `*/*`.
        public let mediaType: String
        /// The range's `q`: 1 when absent, 0 when malformed.
        public let quality: Double

        /// Creates a range.
        public init(mediaType: String, quality: Double) {
            self.mediaType = mediaType
            self.quality = quality
        }
    }

    /// The ranges in the order listed; empty for an absent or empty header.
    public let ranges: [MediaRange]

    /// Parses `header`; `nil` (no header) gives no ranges.
    public init(_ header: String?) {
        var ranges: [MediaRange] = []
        header?.withFieldBytes { bytes in
            Self.forEachRange(in: bytes) { _, type, quality in
                let name = String(decoding: bytes[type].lazy.map(FieldBytes.lowercased), as: UTF8.self)
                ranges.append(MediaRange(mediaType: name, quality: quality))
            }
        }
        self.ranges = ranges
    }

    /// How much the client wants `mediaType` (e.g. `image/avif`): the
    /// quality of the most specific range that matches it — the type
    /// itself, else `type/*`, else `*/*` — and 0 when none does. With no
    /// ranges at all (no header) every type is acceptable: 1.
    public func quality(of mediaType: String) -> Double {
        guard !ranges.isEmpty else { return 1 }
        let wanted = mediaType.lowercased()
        let typeWildcard = wanted.split(separator: "/", maxSplits: 1).first.map { $0 + "/*" } ?? "*/*"
        var exact: Double?
        var type: Double?
        var any: Double?
        for range in ranges {
            // Repeated ranges: the highest quality counts.
            switch range.mediaType {
            case wanted: exact = max(exact ?? 0, range.quality)
            case typeWildcard: type = max(type ?? 0, range.quality)
            case "*/*": any = max(any ?? 0, range.quality)
            default: break
            }
        }
        return exact ?? type ?? any ?? 0
    }

    /// The quality of `mediaType` where the client names it exactly (not
    /// through `type/*` or `*/*`), or `nil` when it does not. The highest
    /// when it is named more than once.
    public func explicitQuality(of mediaType: String) -> Double? {
        let wanted = mediaType.lowercased()
        return ranges.lazy.filter { $0.mediaType == wanted }.map(\.quality).max()
    }

    /// Whether `accept` names `image/webp` with a quality above zero:
    /// ``namesExplicitly(_:in:)`` for `image/webp`.
    public static func acceptsWebP(_ accept: String?) -> Bool {
        guard let accept else { return false }
        // The static needle keeps the hot path's prefilter allocation-free.
        return accept.withFieldBytes { bytes in
            FieldBytes.contains("image/webp", ignoringCaseIn: bytes) && names("image/webp", in: bytes)
        }
    }

    /// Whether `accept` names `mediaType` itself (e.g. `image/avif`, lower
    /// case) with a quality above zero — the one test for "this client shows
    /// this format".
    ///
    /// `image/*` and `*/*` do not count: Safari 14 on older macOS sends
    /// `image/*` and cannot decode WebP, and Safari before 16 none of AVIF.
    /// A malformed `q` counts as zero; a type named twice counts if any
    /// listing has q > 0. Cheaper than parsing: nearly every header is
    /// scanned once for the word and no string is made.
    public static func namesExplicitly(_ mediaType: String, in accept: String?) -> Bool {
        guard let accept else { return false }
        return accept.withFieldBytes { bytes in
            FieldBytes.contains(mediaType.utf8, ignoringCaseIn: bytes) && names(mediaType, in: bytes)
        }
    }

    /// The one `Accept` negotiation between image formats, used by the
    /// bridge's client policy and the origin: the index of the candidate
    /// `accept` prefers, or `nil` when it names none (or prefers `source`).
    ///
    /// A candidate counts only where `accept` names it exactly (`image/*`
    /// and `*/*` do not count: Safari 14 sends `image/*` and shows no WebP,
    /// Safari before 16 no AVIF) with q > 0, as ``namesExplicitly(_:in:)``
    /// reads it; among those the highest q wins, ties going to the earlier
    /// candidate (RFC 9110 §12.5.1 leaves ties to the server: `candidates`
    /// are in the server's order of preference). With `source` (the
    /// format the server has, e.g. `image/jpeg`), the winner must also have
    /// a q at least the source's (``quality(of:)``: exact, `type/*`, `*/*`),
    /// else `nil`: the source is served.
    ///
    /// One pass over the bytes; no string is made.
    /// - Parameters:
    ///   - candidates: Media types, lower case, in the server's order.
    ///   - accept: The header; `nil` or empty names nothing.
    ///   - source: The media type that competes with the candidates, if any.
    public static func preferred(_ candidates: [String], in accept: String?, over source: String? = nil) -> Int? {
        guard let qualities = acceptableQualities(candidates, in: accept, over: source),
            let best = qualities.max()
        else { return nil }
        return qualities.firstIndex(of: best)
    }

    /// Every candidate ``preferred(_:in:over:)`` could answer: those that
    /// `accept` names exactly with the highest q among the candidates (and
    /// at least the source's), in the server's order — the first is the
    /// preferred one. Empty when it names none or prefers `source`. A server
    /// free to choose among them (RFC 9110 §12.5.1) may serve the smallest.
    public static func mostPreferred(_ candidates: [String], in accept: String?, over source: String? = nil) -> [Int] {
        guard let qualities = acceptableQualities(candidates, in: accept, over: source),
            let best = qualities.max()
        else { return [] }
        return qualities.indices.filter { qualities[$0] == best }
    }

    /// Each candidate's q as `accept` names it exactly, or `nil` when none is
    /// named with q > 0 or the best of them is below `source`'s q — the one
    /// reading behind ``preferred(_:in:over:)`` and ``mostPreferred(_:in:over:)``.
    private static func acceptableQualities(
        _ candidates: [String], in accept: String?, over source: String?
    ) -> [Double]? {
        guard let accept, !candidates.isEmpty else { return nil }
        return accept.withFieldBytes { bytes -> [Double]? in
            var qualities = [Double](repeating: 0, count: candidates.count)
            let sourceType = source.map { $0.lowercased() }
            let sourceWildcard = sourceType.flatMap { $0.split(separator: "/", maxSplits: 1).first.map { $0 + "/*" } }
            var exact: Double?
            var type: Double?
            var any: Double?
            var anyRange = false
            forEachRange(in: bytes) { _, range, quality in
                anyRange = true
                for (index, candidate) in candidates.enumerated()
                where FieldBytes.equalsIgnoringCase(bytes, range, candidate.utf8) {
                    qualities[index] = max(qualities[index], quality)
                }
                guard let sourceType, let sourceWildcard else { return }
                if FieldBytes.equalsIgnoringCase(bytes, range, sourceType.utf8) {
                    exact = max(exact ?? 0, quality)
                } else if FieldBytes.equalsIgnoringCase(bytes, range, sourceWildcard.utf8) {
                    type = max(type ?? 0, quality)
                } else if FieldBytes.equalsIgnoringCase(bytes, range, "*/*".utf8) {
                    any = max(any ?? 0, quality)
                }
            }
            guard let best = qualities.max(), best > 0 else { return nil }
            guard sourceType != nil else { return qualities }
            // No ranges at all: everything is acceptable, the source as much as any.
            let sourceQuality = anyRange ? exact ?? type ?? any ?? 0 : 1
            return best >= sourceQuality ? qualities : nil
        }
    }

    /// Whether a range of `bytes` is exactly `mediaType` with q > 0.
    private static func names(_ mediaType: String, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var accepts = false
        forEachRange(in: bytes) { _, type, quality in
            if quality > 0, FieldBytes.equalsIgnoringCase(bytes, type, mediaType.utf8) { accepts = true }
        }
        return accepts
    }

    /// `accept` with every `image/webp` range removed and `image/webp;q=0`
    /// added, for a request made on behalf of a client that must not get
    /// WebP (a negotiating upstream would otherwise answer with it). The
    /// other ranges are kept as written.
    ///
    /// A missing or empty header becomes `*/*, image/webp;q=0`, keeping
    /// "anything else" acceptable.
    public static func refusingWebP(_ accept: String?) -> String {
        refusing(["image/webp"], in: accept)
    }

    /// `accept` with every range of `mediaTypes` (lower case) removed and
    /// each added with `q=0`, the other ranges kept as written; a missing
    /// or empty header becomes `*/*` and the refusals.
    public static func refusing(_ mediaTypes: [String], in accept: String?) -> String {
        var kept: [String] = []
        accept?.withFieldBytes { bytes in
            forEachRange(in: bytes) { whole, type, _ in
                guard !type.isEmpty,
                    !mediaTypes.contains(where: { FieldBytes.equalsIgnoringCase(bytes, type, $0.utf8) })
                else { return }
                kept.append(String(decoding: bytes[whole], as: UTF8.self))
            }
        }
        return ([kept.isEmpty ? "*/*" : kept.joined(separator: ", ")] + mediaTypes.map { $0 + ";q=0" })
            .joined(separator: ", ")
    }

    /// Calls `body` for each non-empty comma-separated element of `bytes`
    /// with the element trimmed, its media type trimmed and its quality.
    /// One pass over the bytes.
    static func forEachRange(
        in bytes: UnsafeBufferPointer<UInt8>,
        _ body: (_ whole: Range<Int>, _ type: Range<Int>, _ quality: Double) -> Void
    ) {
        var cursor = 0
        while cursor < bytes.count {
            let start = cursor
            cursor = nextDelimiter(UInt8(ascii: ","), in: bytes, from: cursor, to: bytes.count)
            let whole = FieldBytes.trimmed(start..<cursor, in: bytes)
            cursor += 1
            guard !whole.isEmpty else { continue }
            var index = nextDelimiter(UInt8(ascii: ";"), in: bytes, from: whole.lowerBound, to: whole.upperBound)
            let type = FieldBytes.trimmed(whole.lowerBound..<index, in: bytes)
            var quality = 1.0
            while index < whole.upperBound {
                index += 1  // past the semicolon
                let parameterStart = index
                index = nextDelimiter(UInt8(ascii: ";"), in: bytes, from: index, to: whole.upperBound)
                if let q = qualityParameter(parameterStart..<index, in: bytes) { quality = q }
            }
            body(whole, type, quality)
        }
    }

    /// The index of the first `delimiter` in `start..<end` outside a quoted
    /// string, or `end`. A quoted string runs from `"` to the next `"` not
    /// escaped by a backslash, or to `end` when none closes it.
    private static func nextDelimiter(
        _ delimiter: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int
    ) -> Int {
        var index = start
        var quoted = false
        while index < end {
            let byte = bytes[index]
            if quoted {
                if byte == UInt8(ascii: "\\") {
                    index += 1  // the escaped byte, whatever it is
                } else if byte == UInt8(ascii: "\"") {
                    quoted = false
                }
            } else if byte == UInt8(ascii: "\"") {
                quoted = true
            } else if byte == delimiter {
                return index
            }
            index += 1
        }
        return end
    }

    /// The value of a `q=…` parameter (0 when malformed), or `nil` when the
    /// parameter is another one.
    private static func qualityParameter(_ parameter: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let equals = bytes[parameter].firstIndex(of: UInt8(ascii: "=")),
            FieldBytes.equalsIgnoringCase(bytes, FieldBytes.trimmed(parameter.lowerBound..<equals, in: bytes), "q".utf8)
        else { return nil }
        return qualityValue(FieldBytes.trimmed(equals + 1..<parameter.upperBound, in: bytes), in: bytes)
    }

    /// A decimal from 0 to 1 (`1`, `0.8`, `.5`, `0.125`), or 0 for
    /// anything else: empty, signed, quoted, exponent, above 1. Digits past
    /// the fifteenth decimal are checked but do not count.
    private static func qualityValue(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Double {
        var whole = 0
        var fraction = 0
        var fractionDigits = 0
        var seenDigit = false
        var seenPoint = false
        for byte in bytes[range] {
            if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
                continue
            }
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return 0 }
            seenDigit = true
            if !seenPoint {
                whole = min(whole * 10 + Int(digit), 2)  // anything above 1 is malformed; stay small
            } else if fractionDigits < 15 {
                fraction = fraction * 10 + Int(digit)
                fractionDigits += 1
            }
        }
        guard seenDigit else { return 0 }
        var scale = 1.0
        for _ in 0..<fractionDigits { scale *= 10 }
        // Exact integers divided once: `0.3` reads as the same double as `Double("0.3")`.
        let value = Double(whole) + Double(fraction) / scale
        return value <= 1 ? value : 0
    }
}
