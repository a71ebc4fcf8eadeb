/// JSON form: `{"webpSupport": "accept" | "apple-webkit", "transcodeOthers": true,
/// "excludedDeviceClasses": ["tablet"]}`, every field optional.
extension ClientPolicy: Codable {
    private typealias AnyCodingKey = PolicyCodingKey
    /// Decodes a policy, throwing ``RewriteConfigurationError`` naming the field.
    public init(from decoder: any Decoder) throws {
        let container: KeyedDecodingContainer<AnyCodingKey>
        do {
            container = try decoder.container(keyedBy: AnyCodingKey.self)
        } catch {
            throw RewriteConfigurationError.invalid(rule: nil, field: "client", "expected an object")
        }
        let known: Set<String> = ["webpSupport", "transcodeOthers", "excludedDeviceClasses"]
        for key in container.allKeys where !known.contains(key.stringValue) {
            throw RewriteConfigurationError.invalid(
                rule: nil, field: "client.\(key.stringValue)",
                "unknown field (expected webpSupport, transcodeOthers, excludedDeviceClasses)")
        }
        func field<T: Decodable>(_ key: String, _ expected: String) throws -> T? {
            do {
                return try container.decodeIfPresent(T.self, forKey: AnyCodingKey(key))
            } catch {
                throw RewriteConfigurationError.invalid(rule: nil, field: "client.\(key)", "expected \(expected)")
            }
        }
        self.init()
        if let support: String = try field("webpSupport", "a string") {
            guard let value = WebPSupport(rawValue: support) else {
                let names = WebPSupport.allCases.map(\.rawValue).joined(separator: ", ")
                throw RewriteConfigurationError.invalid(
                    rule: nil, field: "client.webpSupport", "unknown value '\(support)' (one of: \(names))")
            }
            webPSupport = value
        }
        if let transcode: Bool = try field("transcodeOthers", "true or false") { transcodesForOtherClients = transcode }
        if let excluded: [String] = try field("excludedDeviceClasses", "a list of device classes") {
            excludedDeviceClasses = Set(excluded.map(DeviceClass.init(rawValue:)))
        }
    }

    /// Encodes the JSON form read by ``init(from:)``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        try container.encode(webPSupport.rawValue, forKey: AnyCodingKey("webpSupport"))
        try container.encode(transcodesForOtherClients, forKey: AnyCodingKey("transcodeOthers"))
        try container.encode(
            excludedDeviceClasses.map(\.rawValue).sorted(), forKey: AnyCodingKey("excludedDeviceClasses"))
    }
}

/// A JSON object key, any name.
struct PolicyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
