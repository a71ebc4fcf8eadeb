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
        overriding(RewriteOverrides(width: width, quality: quality, formats: formats))
    }

    /// This configuration with every rule's settings that `overrides` names
    /// replaced: a fixed quality replaces an automatic one and the other way
    /// round, explicit formats replace the automatic format and the other way
    /// round, a width from the client keeps the given width as its fallback.
    /// Validate the result: a rule's CDN may not document what is asked.
    public func overriding(_ overrides: RewriteOverrides) -> RewriteConfiguration {
        var copy = self
        for index in copy.rules.indices {
            if let widthFromClient = overrides.widthFromClient {
                copy.rules[index].widthFromClient = widthFromClient
                if widthFromClient { copy.rules[index].width = overrides.width }
            }
            if let width = overrides.width { copy.rules[index].width = width }
            if let quality = overrides.quality {
                copy.rules[index].quality = quality
                copy.rules[index].automaticQuality = nil
            }
            if let automatic = overrides.automaticQuality {
                copy.rules[index].automaticQuality = automatic
                copy.rules[index].quality = nil
            }
            if let formats = overrides.formats {
                copy.rules[index].formats = formats
                copy.rules[index].automaticFormat = false
            }
            if overrides.automaticFormat {
                copy.rules[index].formats = [.webp]
                copy.rules[index].automaticFormat = true
            }
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

/// Settings given on a command line for every rule (``RewriteConfiguration/overriding(_:)``);
/// `nil` (or `false`) leaves the rules' own.
public struct RewriteOverrides: Sendable, Hashable {
    /// The width, or with ``widthFromClient`` its fallback.
    public var width: Int?
    /// Whether the width comes from the client's hints (`--width auto`).
    public var widthFromClient: Bool?
    /// A fixed quality.
    public var quality: Int?
    /// A quality the CDN chooses (`--quality auto`).
    public var automaticQuality: AutomaticQuality?
    /// Explicit formats.
    public var formats: [VariantFormat]?
    /// The format the CDN chooses by `Accept` (`--formats auto`).
    public var automaticFormat: Bool

    /// Overrides; every parameter defaults to leaving the rules' own.
    public init(
        width: Int? = nil, widthFromClient: Bool? = nil, quality: Int? = nil,
        automaticQuality: AutomaticQuality? = nil, formats: [VariantFormat]? = nil, automaticFormat: Bool = false
    ) {
        self.width = width
        self.widthFromClient = widthFromClient
        self.quality = quality
        self.automaticQuality = automaticQuality
        self.formats = formats
        self.automaticFormat = automaticFormat
    }
}
