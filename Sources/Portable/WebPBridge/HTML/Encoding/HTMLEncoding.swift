/// A character encoding of the WHATWG Encoding Standard, by its name, as
/// the HTML rewriter needs it: whether the bytes that spell markup
/// (`<`, `>`, quotes, `=`, ASCII letters) mean those characters in it.
public struct HTMLEncoding: Sendable, Hashable, CustomStringConvertible {
    /// The encoding's name as the standard writes it (`utf-8`, `windows-1252`, `utf-16le`…).
    public let name: String

    public var description: String { name }

    /// Whether every byte below 0x80 is the ASCII character, so markup can
    /// be read (and URLs rewritten) byte by byte: every encoding but
    /// UTF-16BE/LE, ISO-2022-JP (whose escape sequences switch to two-byte
    /// text made of ASCII bytes) and the replacement encoding (ISO-2022-KR,
    /// ISO-2022-CN, HZ-GB-2312). The legacy multi-byte encodings (GBK,
    /// Big5, Shift_JIS, EUC-JP/KR) qualify: their lead bytes are all 0x80 or
    /// above, and no trail byte is `<`, `>`, a quote or `=`.
    public var isASCIICompatible: Bool { !Self.notASCIICompatible.contains(name) }

    private static let notASCIICompatible: Set<String> = ["utf-16be", "utf-16le", "iso-2022-jp", "replacement"]

    /// UTF-8.
    public static let utf8 = HTMLEncoding(name: "utf-8")
    /// UTF-16LE (also the label `utf-16`).
    public static let utf16LE = HTMLEncoding(name: "utf-16le")
    /// UTF-16BE.
    public static let utf16BE = HTMLEncoding(name: "utf-16be")
    /// windows-1252, what `iso-8859-1`, `latin1` and `us-ascii` mean on the web.
    public static let windows1252 = HTMLEncoding(name: "windows-1252")

    private init(name: String) {
        self.name = name
    }

    /// The encoding a label names ("get an encoding": ASCII whitespace
    /// around it ignored, any case), or `nil` for a label the standard does not know.
    public init?(label: some StringProtocol) {
        let trimmed = label.utf8.drop { Self.isWhitespace($0) }.reversed().drop { Self.isWhitespace($0) }.reversed()
        let key = String(decoding: trimmed.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        guard let name = Self.byLabel[key] else { return nil }
        self.name = name
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    private static let byLabel: [String: String] = {
        var table: [String: String] = [:]
        for (name, labels) in labels {
            for label in labels { table[label] = name }
        }
        return table
    }()

    /// Every encoding's labels (the Encoding Standard's `encodings.json`).
    private static let labels: [(String, [String])] = [
        ("utf-8", ["unicode-1-1-utf-8", "utf-8", "utf8"]),
        ("ibm866", ["866", "cp866", "csibm866", "ibm866"]),
        (
            "iso-8859-2",
            [
                "csisolatin2", "iso-8859-2", "iso-ir-101", "iso8859-2", "iso88592", "iso_8859-2", "iso_8859-2:1987",
                "l2", "latin2",
            ]
        ),
        (
            "iso-8859-3",
            [
                "csisolatin3", "iso-8859-3", "iso-ir-109", "iso8859-3", "iso88593", "iso_8859-3", "iso_8859-3:1988",
                "l3", "latin3",
            ]
        ),
        (
            "iso-8859-4",
            [
                "csisolatin4", "iso-8859-4", "iso-ir-110", "iso8859-4", "iso88594", "iso_8859-4", "iso_8859-4:1988",
                "l4", "latin4",
            ]
        ),
        (
            "iso-8859-5",
            [
                "csisolatincyrillic", "cyrillic", "iso-8859-5", "iso-ir-144", "iso8859-5", "iso88595", "iso_8859-5",
                "iso_8859-5:1988",
            ]
        ),
        (
            "iso-8859-6",
            [
                "arabic", "asmo-708", "csiso88596e", "csiso88596i", "csisolatinarabic", "ecma-114", "iso-8859-6",
                "iso-8859-6-e", "iso-8859-6-i", "iso-ir-127", "iso8859-6", "iso88596", "iso_8859-6", "iso_8859-6:1987",
            ]
        ),
        (
            "iso-8859-7",
            [
                "csisolatingreek", "ecma-118", "elot_928", "greek", "greek8", "iso-8859-7", "iso-ir-126", "iso8859-7",
                "iso88597", "iso_8859-7", "iso_8859-7:1987", "sun_eu_greek",
            ]
        ),
        (
            "iso-8859-8",
            [
                "csiso88598e", "csisolatinhebrew", "hebrew", "iso-8859-8", "iso-8859-8-e", "iso-ir-138", "iso8859-8",
                "iso88598", "iso_8859-8", "iso_8859-8:1988", "visual",
            ]
        ),
        ("iso-8859-8-i", ["csiso88598i", "iso-8859-8-i", "logical"]),
        ("iso-8859-10", ["csisolatin6", "iso-8859-10", "iso-ir-157", "iso8859-10", "iso885910", "l6", "latin6"]),
        ("iso-8859-13", ["iso-8859-13", "iso8859-13", "iso885913"]),
        ("iso-8859-14", ["iso-8859-14", "iso8859-14", "iso885914"]),
        ("iso-8859-15", ["csisolatin9", "iso-8859-15", "iso8859-15", "iso885915", "iso_8859-15", "l9"]),
        ("iso-8859-16", ["iso-8859-16"]),
        ("koi8-r", ["cskoi8r", "koi", "koi8", "koi8-r", "koi8_r"]),
        ("koi8-u", ["koi8-u"]),
        ("macintosh", ["csmacintosh", "mac", "macintosh", "x-mac-roman"]),
        ("windows-874", ["dos-874", "iso-8859-11", "iso8859-11", "iso885911", "tis-620", "windows-874"]),
        ("windows-1250", ["cp1250", "windows-1250", "x-cp1250"]),
        ("windows-1251", ["cp1251", "windows-1251", "x-cp1251"]),
        (
            "windows-1252",
            [
                "ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819", "iso-8859-1", "iso-ir-100",
                "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "latin1", "us-ascii", "windows-1252",
                "x-cp1252",
            ]
        ),
        ("windows-1253", ["cp1253", "windows-1253", "x-cp1253"]),
        (
            "windows-1254",
            [
                "cp1254", "csisolatin5", "iso-8859-9", "iso-ir-148", "iso8859-9", "iso88599", "iso_8859-9",
                "iso_8859-9:1989", "l5", "latin5", "windows-1254", "x-cp1254",
            ]
        ),
        ("windows-1255", ["cp1255", "windows-1255", "x-cp1255"]),
        ("windows-1256", ["cp1256", "windows-1256", "x-cp1256"]),
        ("windows-1257", ["cp1257", "windows-1257", "x-cp1257"]),
        ("windows-1258", ["cp1258", "windows-1258", "x-cp1258"]),
        ("x-mac-cyrillic", ["x-mac-cyrillic", "x-mac-ukrainian"]),
        (
            "gbk",
            ["chinese", "csgb2312", "csiso58gb231280", "gb2312", "gb_2312", "gb_2312-80", "gbk", "iso-ir-58", "x-gbk"]
        ),
        ("gb18030", ["gb18030"]),
        ("big5", ["big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5"]),
        ("euc-jp", ["cseucpkdfmtjapanese", "euc-jp", "x-euc-jp"]),
        ("iso-2022-jp", ["csiso2022jp", "iso-2022-jp"]),
        ("shift_jis", ["csshiftjis", "ms932", "ms_kanji", "shift-jis", "shift_jis", "sjis", "windows-31j", "x-sjis"]),
        (
            "euc-kr",
            [
                "cseuckr", "csksc56011987", "euc-kr", "iso-ir-149", "korean", "ks_c_5601-1987", "ks_c_5601-1989",
                "ksc5601", "ksc_5601", "windows-949",
            ]
        ),
        ("replacement", ["csiso2022kr", "hz-gb-2312", "iso-2022-cn", "iso-2022-cn-ext", "iso-2022-kr"]),
        ("utf-16be", ["utf-16be"]),
        ("utf-16le", ["utf-16", "utf-16le"]),
        ("x-user-defined", ["x-user-defined"]),
    ]
}
