/// The client hints an image server sizes by, read from one request:
/// `Sec-CH-DPR`/`DPR`, `Sec-CH-Width`/`Width`,
/// `Sec-CH-Viewport-Width`/`Viewport-Width` (WICG Responsive Image Client
/// Hints, https://wicg.github.io/responsive-image-client-hints/, and the
/// legacy names of draft-ietf-httpbis-client-hints before -07) and
/// `Save-Data` (WICG Save Data, https://wicg.github.io/savedata/).
///
/// Every value is hostile: a `Sec-CH-*` field must be one RFC 8941 number
/// (an `sf-integer`, or an `sf-decimal` for the DPR; no parameters), a legacy
/// one the drafts' decimal form (`1*DIGIT ["." 1*DIGIT]` for the DPR, digits
/// for the widths); a value that is anything else, longer than
/// ``maxValueBytes``, repeated (two field lines, or a comma), or out of
/// bounds (DPR `0 < dpr ≤ 4`, widths `1...16383`) is ignored, as if not
/// sent. The `Sec-CH-` name is read first; the legacy name only when that
/// is absent or ignored.
///
/// The width a variant is made at (``targetWidth``), in device pixels:
/// `Width` when sent (it already counts the DPR), else `Viewport-Width` × the
/// DPR rounded up to a half (``dprClass``; 1 without a DPR): the viewport
/// bounds the slot, and a half-step DPR keeps the product computable by a
/// cache's key map (deploy/nginx). A DPR alone says nothing about the slot
/// and changes nothing. ``widthBucket`` rounds that width up to
/// ``widthBuckets`` — a width past the largest bucket has none, and the
/// request is served as if it sent no width — and ``ClientHints/Sizing``
/// steps it one bucket down under `Save-Data: on`.
public struct ClientHints: Sendable, Equatable {
    /// The client's device pixel ratio, as sent.
    public var dpr: Double?
    /// The slot's width in device pixels (`Sec-CH-Width`/`Width`).
    public var width: Int?
    /// The layout viewport's width in CSS pixels.
    public var viewportWidth: Int?
    /// `Save-Data: on`.
    public var saveData: Bool

    public init(dpr: Double? = nil, width: Int? = nil, viewportWidth: Int? = nil, saveData: Bool = false) {
        self.dpr = dpr
        self.width = width
        self.viewportWidth = viewportWidth
        self.saveData = saveData
    }

    /// The widths variants are made at, in device pixels, ascending: few,
    /// so a cache holds at most this many sizes of one URL per format (and
    /// twice that with `Save-Data`). 750 and 1080 are the common phone
    /// widths a rule names; the steps above follow common screen widths.
    public static let widthBuckets = [160, 320, 480, 640, 750, 960, 1080, 1280, 1440, 1920, 2560]

    /// The largest DPR honoured.
    public static let maxDPR = 4.0
    /// The widths honoured: `1...16383`.
    public static let widthRange = 1...16383
    /// Longer values are ignored without being read.
    public static let maxValueBytes = 32

    /// The request fields the hints are read from, `Sec-CH-` names first:
    /// a response whose size depends on them lists every one in `Vary`,
    /// sent or not (a cache must not give the hint-less answer to a client
    /// that hints).
    public static let sizingFieldNames = [
        "Sec-CH-DPR", "DPR", "Sec-CH-Width", "Width", "Sec-CH-Viewport-Width", "Viewport-Width",
    ]
    /// The `Save-Data` field's name.
    public static let saveDataFieldName = "Save-Data"
    /// The field a client sends its slot's width in (``width``), and a
    /// bridge passes a width bucket on in (``ImageRequest/widthHint``).
    public static let widthFieldName = "Sec-CH-Width"
    /// What a page asks for in `Accept-CH` so that browsers send the hints
    /// with its images (the legacy names are never asked for: browsers that
    /// still send them send them anyway).
    public static let acceptCH = "Sec-CH-DPR, Sec-CH-Width, Sec-CH-Viewport-Width"

    /// An `Accept-CH` value asking for ``acceptCH``'s hints besides those
    /// `existing` (a page's own `Accept-CH`) asks for: each name once,
    /// whatever its case, the page's first.
    public static func acceptCH(merging existing: String?) -> String {
        var names: [Substring] = []
        var seen: Set<String> = []
        for element in ((existing ?? "") + "," + acceptCH).split(separator: ",") {
            let name = element.trimmingSpacesAndTabs
            if !name.isEmpty, seen.insert(name.lowercased()).inserted { names.append(name) }
        }
        return names.joined(separator: ", ")
    }

    /// Reads the hints from a request's fields.
    /// - Parameter fields: The request's header fields.
    public init(fields: HTTPFieldList) {
        dpr = Self.field(fields, "Sec-CH-DPR", Self.structuredDPR) ?? Self.field(fields, "DPR", Self.legacyDPR)
        width =
            Self.field(fields, "Sec-CH-Width", Self.structuredWidth) ?? Self.field(fields, "Width", Self.legacyWidth)
        viewportWidth =
            Self.field(fields, "Sec-CH-Viewport-Width", Self.structuredWidth)
            ?? Self.field(fields, "Viewport-Width", Self.legacyWidth)
        saveData = Self.savesData(fields)
    }

    /// Whether `fields` say `Save-Data: on`, read as ``init(fields:)`` reads
    /// it, without the sizing hints.
    public static func savesData(_ fields: HTTPFieldList) -> Bool {
        field(fields, saveDataFieldName, saveDataOn) ?? false
    }

    /// The DPR rounded up to a multiple of 0.5 (2.625 → 3), at least 1;
    /// 1 without a DPR.
    public var dprClass: Double {
        guard let dpr else { return 1 }
        return max(1, (dpr * 2).rounded(.up) / 2)
    }

    /// The width the client's slot needs, in device pixels, or `nil` when
    /// the hints do not say (see the type's documentation).
    public var targetWidth: Int? {
        if let width { return width }
        guard let viewportWidth else { return nil }
        return Int((Double(viewportWidth) * dprClass).rounded(.up))
    }

    /// ``targetWidth`` rounded up to ``widthBuckets``; `nil` without a
    /// target or past the largest bucket.
    public var widthBucket: Int? {
        targetWidth.flatMap(Self.bucket(forWidth:))
    }

    /// `width` rounded up to ``widthBuckets``; `nil` past the largest.
    public static func bucket(forWidth width: Int) -> Int? {
        widthBuckets.first { $0 >= width }
    }

    /// What the hints ask of a variant.
    public struct Sizing: Sendable, Equatable, Hashable {
        /// The most device pixels wide the variant should be: a bucket of
        /// ``ClientHints/widthBuckets``; `nil` leaves the width to the URL.
        public var maxWidth: Int?
        /// `Save-Data: on`: make it smaller (and, where the encoder allows,
        /// at a lower quality).
        public var saveData: Bool

        public init(maxWidth: Int? = nil, saveData: Bool = false) {
            self.maxWidth = maxWidth
            self.saveData = saveData
        }

        /// No hint changes the variant.
        public var isNone: Bool { maxWidth == nil && !saveData }

        /// A short stable form for cache keys: `w640`, `w480-sd`, `sd`, or
        /// empty for ``isNone``.
        public var key: String {
            var parts: [String] = []
            if let maxWidth { parts.append("w\(maxWidth)") }
            if saveData { parts.append("sd") }
            return parts.joined(separator: "-")
        }
    }

    /// The sizing these hints ask for.
    /// - Parameters:
    ///   - width: Whether the width hints are honoured.
    ///   - saveData: Whether `Save-Data` is honoured; then it steps the
    ///     bucket one down (not below the first).
    public func sizing(honouringWidth width: Bool, saveData: Bool) -> Sizing {
        let saving = saveData && self.saveData
        guard width, let bucket = widthBucket else { return Sizing(maxWidth: nil, saveData: saving) }
        guard saving, let index = Self.widthBuckets.firstIndex(of: bucket) else {
            return Sizing(maxWidth: bucket, saveData: saving)
        }
        return Sizing(maxWidth: Self.widthBuckets[max(0, index - 1)], saveData: true)
    }

    // MARK: Reading the fields

    /// One field's value, parsed; `nil` when absent, repeated or refused.
    private static func field<Value>(
        _ fields: HTTPFieldList, _ name: String, _ parse: (Substring) -> Value?
    ) -> Value? {
        let values = fields.values(for: name)
        guard values.count == 1, let value = values.first, value.utf8.count <= maxValueBytes else { return nil }
        // RFC 8941 §4.2 discards leading and trailing spaces; the legacy forms allow OWS around the value.
        return parse(value[...].trimmingSpacesAndTabs)
    }

    /// An RFC 8941 `sf-integer` or `sf-decimal` (§3.3.1, §3.3.2) without
    /// parameters: at most 15 integer digits, or 12 and 1–3 fraction digits.
    static func structuredNumber(_ text: Substring) -> Double? {
        let bytes = Array(text.utf8)
        var index = 0
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        let integerStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        let integerDigits = index - integerStart
        guard integerDigits > 0 else { return nil }
        var fractionDigits = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            fractionDigits = index - fractionStart
            guard integerDigits <= 12, (1...3).contains(fractionDigits) else { return nil }
        } else {
            guard integerDigits <= 15 else { return nil }
        }
        guard index == bytes.count, let value = Double(String(decoding: bytes[integerStart...], as: UTF8.self))
        else { return nil }
        return negative ? -value : value
    }

    /// The legacy drafts' forms: `1*DIGIT ["." 1*DIGIT]` when `fraction`,
    /// else `1*DIGIT` (length bounded by ``maxValueBytes``).
    static func legacyNumber(_ text: Substring, fraction: Bool) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count == 1 || fraction,
            parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(isDigit) })
        else { return nil }
        return Double(text)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private static func dpr(_ value: Double?) -> Double? {
        guard let value, value > 0, value <= maxDPR else { return nil }
        return value
    }

    private static func width(_ value: Double?) -> Int? {
        guard let value, value.rounded(.towardZero) == value, value >= Double(widthRange.lowerBound),
            value <= Double(widthRange.upperBound)
        else { return nil }
        return Int(value)
    }

    private static func structuredDPR(_ text: Substring) -> Double? { dpr(structuredNumber(text)) }
    private static func legacyDPR(_ text: Substring) -> Double? { dpr(legacyNumber(text, fraction: true)) }
    /// An `sf-integer` (a decimal, even `640.0`, is refused: the field is an integer).
    private static func structuredWidth(_ text: Substring) -> Int? {
        guard !text.contains(".") else { return nil }
        return width(structuredNumber(text))
    }
    private static func legacyWidth(_ text: Substring) -> Int? { width(legacyNumber(text, fraction: false)) }

    /// `Save-Data`'s `sd-token` `on`, in any case; the savedata spec allows
    /// `;`-separated extension tokens after it (`on; foo`), so only the
    /// first token counts.
    private static func saveDataOn(_ text: Substring) -> Bool? {
        let first = text.prefix { $0 != ";" }.trimmingSpacesAndTabs
        return first.lowercased() == "on"
    }
}
