/// The JSON form of a rule is one flat object: the common fields plus the
/// fields of its dialect. Unknown fields are errors (a misspelt `widht` must
/// not silently fall back to a default).
extension RewriteRule: Codable {
    static let commonFields: Set<String> = [
        "name", "hosts", "schemes", "pathPrefix", "gif", "dialect", "width", "quality", "formats",
    ]

    static func dialectFields(_ dialect: String) -> Set<String> {
        switch dialect {
        case "qiniu": ["mode", "ignoreError", "styleSeparator", "styles", "stylesOnly"]
        case "tencent-ci": ["ignoreError"]
        case "aliyun-oss": ["parameter"]
        case "thumbor": ["server"]
        case "template": ["template"]
        default: []
        }
    }

    /// `rule 2 ("photos")`: how errors name a rule (1-based position, then name).
    static func label(index: Int?, name: String?) -> String {
        var label = index.map { "rule \($0 + 1)" } ?? "rule"
        if let name, !name.isEmpty { label += " (\"\(name)\")" }
        return label
    }

    /// Decodes a rule, throwing ``RewriteConfigurationError`` naming the rule and field.
    public init(from decoder: any Decoder) throws {
        let index = decoder.codingPath.last?.intValue
        let container: KeyedDecodingContainer<AnyCodingKey>
        do {
            container = try decoder.container(keyedBy: AnyCodingKey.self)
        } catch {
            throw RewriteConfigurationError.invalid(
                rule: Self.label(index: index, name: nil), field: "rules", "each rule must be a JSON object")
        }
        var label = Self.label(index: index, name: nil)
        func field<T: Decodable>(_ key: String, _ expected: String) throws -> T? {
            do {
                return try container.decodeIfPresent(T.self, forKey: AnyCodingKey(key))
            } catch {
                throw RewriteConfigurationError.invalid(rule: label, field: key, "expected \(expected)")
            }
        }
        let name: String? = try field("name", "a string")
        label = Self.label(index: index, name: name)
        guard let dialectName: String = try field("dialect", "a string") else {
            throw RewriteConfigurationError.invalid(
                rule: label, field: "dialect",
                "missing (one of: \(RewriteDialect.allNames.joined(separator: ", ")))")
        }
        guard RewriteDialect.allNames.contains(dialectName) else {
            throw RewriteConfigurationError.invalid(
                rule: label, field: "dialect",
                "unknown dialect '\(dialectName)' (one of: \(RewriteDialect.allNames.joined(separator: ", ")))")
        }
        let allowed = Self.commonFields.union(Self.dialectFields(dialectName))
        for key in container.allKeys.map(\.stringValue).sorted() where !allowed.contains(key) {
            throw RewriteConfigurationError.invalid(
                rule: label, field: key, "unknown field for dialect '\(dialectName)'")
        }
        guard let hosts: [String] = try field("hosts", "a list of host names") else {
            throw RewriteConfigurationError.invalid(rule: label, field: "hosts", "missing (a list of host names)")
        }
        let dialect: RewriteDialect
        switch dialectName {
        case "qiniu":
            var options = QiniuOptions()
            if let mode: Int = try field("mode", "a whole number from 0 to 5") { options.mode = mode }
            if let ignoreError: Bool = try field("ignoreError", "true or false") { options.ignoreError = ignoreError }
            if let separator: String = try field("styleSeparator", "a string") { options.styleSeparator = separator }
            if let styles: [String: String] = try field("styles", "an object of style name → processing") {
                options.styles = styles
            }
            if let stylesOnly: Bool = try field("stylesOnly", "true or false") { options.stylesOnly = stylesOnly }
            dialect = .qiniu(options)
        case "qiniu-legacy":
            dialect = .qiniuLegacy
        case "tencent-ci":
            var options = TencentCIOptions()
            if let ignoreError: Bool = try field("ignoreError", "true or false") { options.ignoreError = ignoreError }
            dialect = .tencentCI(options)
        case "aliyun-oss":
            var options = AliyunOSSOptions()
            let names = AliyunOSSOptions.Parameter.allCases.map(\.rawValue).joined(separator: ", ")
            if let parameter: String = try field("parameter", "a string") {
                guard let value = AliyunOSSOptions.Parameter(rawValue: parameter) else {
                    throw RewriteConfigurationError.invalid(
                        rule: label, field: "parameter", "unknown parameter '\(parameter)' (one of: \(names))")
                }
                options.parameter = value
            }
            dialect = .aliyunOSS(options)
        case "cloudinary":
            dialect = .cloudinary
        case "imgix":
            dialect = .imgix
        case "cloudflare":
            dialect = .cloudflare
        case "thumbor":
            dialect = .thumbor(ThumborOptions(server: try field("server", "a URL string")))
        default:
            guard let pattern: String = try field("template", "a string") else {
                throw RewriteConfigurationError.invalid(
                    rule: label, field: "template", "missing (a pattern such as {scheme}://{host}{path}?fm=webp)")
            }
            dialect = .template(pattern)
        }
        let width = try Self.decodedWidth(container, rule: label)
        let quality = try Self.decodedQuality(container, rule: label)
        let formats = try Self.decodedFormats(container, rule: label)
        self.init(
            name: name ?? "", hosts: hosts, dialect: dialect, width: width.pixels, quality: quality.fixed,
            schemes: try field("schemes", "a list of schemes") ?? ["http", "https"],
            pathPrefix: try field("pathPrefix", "a string") ?? "/",
            convertsGIF: try field("gif", "true or false") ?? false,
            formats: formats.list, automaticQuality: quality.automatic, automaticFormat: formats.automatic,
            widthFromClient: width.fromClient)
    }

    /// `"width": 750`, `"auto"` (from the client's hints) or `"auto:750"`
    /// (from the hints, 750 without them).
    private static func decodedWidth(
        _ container: KeyedDecodingContainer<AnyCodingKey>, rule: String
    ) throws(RewriteConfigurationError) -> (pixels: Int?, fromClient: Bool) {
        let expected = "a whole number, \"auto\" or \"auto:FALLBACK\""
        let key = AnyCodingKey("width")
        if let pixels = try? container.decodeIfPresent(Int.self, forKey: key) { return (pixels, false) }
        guard container.contains(key) else { return (nil, false) }
        guard let text = try? container.decode(String.self, forKey: key), text == "auto" || text.hasPrefix("auto:")
        else { throw .invalid(rule: rule, field: "width", "expected \(expected)") }
        if text == "auto" { return (nil, true) }
        guard let fallback = Int(text.dropFirst("auto:".count)) else {
            throw .invalid(rule: rule, field: "width", "expected \(expected), got '\(text)'")
        }
        return (fallback, true)
    }

    /// `"quality": 75`, or an automatic one (`"auto"`, `"auto:eco"`…).
    private static func decodedQuality(
        _ container: KeyedDecodingContainer<AnyCodingKey>, rule: String
    ) throws(RewriteConfigurationError) -> (fixed: Int?, automatic: AutomaticQuality?) {
        let names = AutomaticQuality.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        let key = AnyCodingKey("quality")
        if let fixed = try? container.decodeIfPresent(Int.self, forKey: key) { return (fixed, nil) }
        guard container.contains(key) else { return (nil, nil) }
        guard let text = try? container.decode(String.self, forKey: key) else {
            throw .invalid(rule: rule, field: "quality", "expected a whole number or one of \(names)")
        }
        guard let automatic = AutomaticQuality(rawValue: text) else {
            throw .invalid(
                rule: rule, field: "quality", "unknown quality '\(text)' (a whole number or one of \(names))")
        }
        return (nil, automatic)
    }

    /// `"formats": ["avif", "webp"]`, or `"auto"` (the CDN chooses by `Accept`).
    private static func decodedFormats(
        _ container: KeyedDecodingContainer<AnyCodingKey>, rule: String
    ) throws(RewriteConfigurationError) -> (list: [VariantFormat], automatic: Bool) {
        let key = AnyCodingKey("formats")
        if let text = try? container.decodeIfPresent(String.self, forKey: key) {
            guard text == "auto" else {
                throw .invalid(rule: rule, field: "formats", "expected a list of formats or \"auto\", got '\(text)'")
            }
            return ([.webp], true)
        }
        let names: [String]?
        do {
            names = try container.decodeIfPresent([String].self, forKey: key)
        } catch {
            throw .invalid(rule: rule, field: "formats", "expected a list of formats (\"avif\", \"webp\") or \"auto\"")
        }
        return (try decodedFormats(names, rule: rule), false)
    }

    /// The `formats` list read from JSON, each name checked.
    private static func decodedFormats(_ names: [String]?, rule: String) throws(RewriteConfigurationError)
        -> [VariantFormat]
    {
        guard let names else { return [.webp] }
        var formats: [VariantFormat] = []
        for name in names {
            guard let format = VariantFormat(rawValue: name.lowercased()) else {
                let known = VariantFormat.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalid(rule: rule, field: "formats", "unknown format '\(name)' (one of: \(known))")
            }
            formats.append(format)
        }
        return formats
    }

    /// Encodes the flat JSON form read by ``init(from:)``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        try container.encode(name, forKey: AnyCodingKey("name"))
        try container.encode(hosts, forKey: AnyCodingKey("hosts"))
        try container.encode(schemes, forKey: AnyCodingKey("schemes"))
        try container.encode(pathPrefix, forKey: AnyCodingKey("pathPrefix"))
        try container.encode(convertsGIF, forKey: AnyCodingKey("gif"))
        try container.encode(dialect.name, forKey: AnyCodingKey("dialect"))
        if widthFromClient {
            try container.encode(width.map { "auto:\($0)" } ?? "auto", forKey: AnyCodingKey("width"))
        } else {
            try container.encodeIfPresent(width, forKey: AnyCodingKey("width"))
        }
        if let automaticQuality {
            try container.encode(automaticQuality.rawValue, forKey: AnyCodingKey("quality"))
        } else {
            try container.encodeIfPresent(quality, forKey: AnyCodingKey("quality"))
        }
        if automaticFormat {
            try container.encode("auto", forKey: AnyCodingKey("formats"))
        } else if formats != [.webp] {
            try container.encode(formats.map(\.rawValue), forKey: AnyCodingKey("formats"))
        }
        switch dialect {
        case .qiniu(let options):
            try container.encode(options.mode, forKey: AnyCodingKey("mode"))
            try container.encode(options.ignoreError, forKey: AnyCodingKey("ignoreError"))
            try container.encode(options.styleSeparator, forKey: AnyCodingKey("styleSeparator"))
            try container.encode(options.styles, forKey: AnyCodingKey("styles"))
            try container.encode(options.stylesOnly, forKey: AnyCodingKey("stylesOnly"))
        case .tencentCI(let options):
            try container.encode(options.ignoreError, forKey: AnyCodingKey("ignoreError"))
        case .aliyunOSS(let options):
            try container.encode(options.parameter.rawValue, forKey: AnyCodingKey("parameter"))
        case .thumbor(let options):
            try container.encodeIfPresent(options.server, forKey: AnyCodingKey("server"))
        case .template(let pattern):
            try container.encode(pattern, forKey: AnyCodingKey("template"))
        case .qiniuLegacy, .cloudinary, .imgix, .cloudflare:
            break
        }
    }
}

/// A coding key for any string, so that unknown JSON fields can be listed.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
