/// The kind of device a request comes from, when the app knows it; a
/// ``ClientPolicy`` can exclude some (the legacy app never rewrote on iPads).
public struct DeviceClass: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The lower-case name, e.g. `tablet`.
    public let rawValue: String

    /// Creates a device class from its name (lower-cased).
    public init(rawValue: String) { self.rawValue = rawValue.lowercased() }

    /// A phone.
    public static let phone = DeviceClass(rawValue: "phone")
    /// A tablet (iPad).
    public static let tablet = DeviceClass(rawValue: "tablet")
    /// A desktop or laptop computer.
    public static let desktop = DeviceClass(rawValue: "desktop")

    /// The name.
    public var description: String { rawValue }

    /// Decodes from a plain string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes as a plain string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension DeviceClass {
    /// What a request's `User-Agent` tells of the device when the app does not
    /// say: an iPad's WebView names itself (the legacy app excluded tablets);
    /// nothing else is guessed.
    public static func guessed(fromUserAgent userAgent: String?) -> DeviceClass? {
        guard let userAgent, userAgent.contains("iPad") else { return nil }
        return .tablet
    }
}
