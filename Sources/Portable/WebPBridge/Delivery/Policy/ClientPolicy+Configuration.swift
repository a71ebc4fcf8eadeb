public import Foundation

extension ClientPolicy {
    /// The request fields the image path's bodies depend on — `Accept`, and
    /// `User-Agent` when the policy reads it (the legacy rule, or excluded
    /// device classes, guessed from it) — for `Vary`.
    public var varyFields: String {
        webPSupport == .legacyAppleWebKit || !excludedDeviceClasses.isEmpty ? "Accept, User-Agent" : "Accept"
    }

    /// The policy a preset implies: ``legacy`` for the one that reproduces
    /// the legacy app (`qiniu-legacy`), else ``standard``.
    public init(preset: RewritePreset) {
        self = preset.reproducesLegacyApp ? .legacy : .standard
    }

    /// The `client` section of a rewrite configuration file
    /// (`{"rules": [...], "client": {...}}`, see ``RewriteConfiguration``),
    /// or ``standard`` when it has none.
    ///
    /// - Throws: ``RewriteConfigurationError`` for malformed JSON or an
    ///   invalid `client` section, naming the field.
    public init(configurationJSON json: Data) throws(RewriteConfigurationError) {
        let file = try RewriteConfiguration.decode(File.self, fromJSON: json)
        self = file.client ?? .standard
    }

    /// The top level of a configuration file, as far as the policy reads it.
    private struct File: Decodable {
        var client: ClientPolicy?
    }
}
