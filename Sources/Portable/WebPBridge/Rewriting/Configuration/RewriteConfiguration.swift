public import Foundation

/// The rewrite rules, decodable from JSON or built in code.
///
/// ```json
/// { "rules": [ { "name": "photos", "hosts": ["img.example.com"], "dialect": "qiniu", "width": 750 } ],
///   "client": { "webpSupport": "accept", "excludedDeviceClasses": ["tablet"] } }
/// ```
///
/// The file's `client` section is the client policy's, read by
/// `ImageDelivery`'s `ClientPolicy(configurationJSON:)`; this type only lets it be.
public struct RewriteConfiguration: Sendable, Hashable {
    /// The rules, tried in order; the first that accepts a URL rewrites it.
    public var rules: [RewriteRule]
    /// Creates a configuration. Call ``validate()`` (or build a ``Rewriter``)
    /// to check it.
    public init(rules: [RewriteRule]) {
        self.rules = rules
    }

    /// Decodes and validates a JSON configuration.
    ///
    /// - Throws: ``RewriteConfigurationError`` for malformed JSON, unknown or
    ///   mistyped fields and invalid values, naming the rule and the field.
    public init(json: Data) throws(RewriteConfigurationError) {
        self = try Self.decode(RewriteConfiguration.self, fromJSON: json)
    }

    /// Decodes `type` from a configuration file's JSON — the rules here, the
    /// client section in `ImageDelivery` — with the errors a configuration
    /// reports: ``RewriteConfigurationError`` as thrown, malformed JSON named.
    public static func decode<Value: Decodable>(
        _ type: Value.Type, fromJSON json: Data
    ) throws(RewriteConfigurationError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: json)
        } catch let error as RewriteConfigurationError {
            throw error
        } catch DecodingError.dataCorrupted(let context) {
            throw .malformed((context.underlyingError as? NSError)?.localizedDescription ?? context.debugDescription)
        } catch {
            throw .malformed(String(describing: error))
        }
    }

    /// Reads, decodes and validates a JSON configuration file.
    ///
    /// - Throws: ``RewriteConfigurationError`` when the file cannot be read or is invalid.
    public init(contentsOf file: URL) throws(RewriteConfigurationError) {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            let problem = (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
            throw .unreadable(path: file.path, problem: problem)
        }
        try self.init(json: data)
    }

    /// Checks every rule, as building a ``Rewriter`` does.
    ///
    /// - Throws: ``RewriteConfigurationError`` for the first invalid rule.
    public func validate() throws(RewriteConfigurationError) {
        _ = try Rewriter(configuration: self)
    }

    /// This configuration with every rule's width, quality and/or formats
    /// replaced (the screen width is known only on the device, or on the
    /// command line). Validate the result: a rule's CDN may not make a
    /// format given here.
    public func overriding(width: Int?, quality: Int?, formats: [VariantFormat]? = nil) -> RewriteConfiguration {
        var copy = self
        for index in copy.rules.indices {
            if let width { copy.rules[index].width = width }
            if let quality { copy.rules[index].quality = quality }
            if let formats { copy.rules[index].formats = formats }
        }
        return copy
    }
}

extension RewriteConfiguration: Codable {
    /// Decodes `{"rules": [...], "client": {...}}` and validates the rules
    /// (the `client` section is left to the client policy).
    public init(from decoder: any Decoder) throws {
        let container: KeyedDecodingContainer<AnyCodingKey>
        do {
            container = try decoder.container(keyedBy: AnyCodingKey.self)
        } catch {
            throw RewriteConfigurationError.malformed("the top level must be an object with a \"rules\" list")
        }
        for key in container.allKeys where key.stringValue != "rules" && key.stringValue != "client" {
            throw RewriteConfigurationError.invalid(
                rule: nil, field: key.stringValue, "unknown field (expected rules, client)")
        }
        guard container.contains(AnyCodingKey("rules")) else {
            throw RewriteConfigurationError.invalid(rule: nil, field: "rules", "missing (a list of rules)")
        }
        var list: any UnkeyedDecodingContainer
        do {
            list = try container.nestedUnkeyedContainer(forKey: AnyCodingKey("rules"))
        } catch {
            throw RewriteConfigurationError.invalid(rule: nil, field: "rules", "expected a list of rules")
        }
        var rules: [RewriteRule] = []
        while !list.isAtEnd {
            rules.append(try RewriteRule(from: try list.superDecoder()))
        }
        self.init(rules: rules)
        try validate()
    }

    /// Encodes the JSON form read by ``init(from:)``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        try container.encode(rules, forKey: AnyCodingKey("rules"))
    }
}
