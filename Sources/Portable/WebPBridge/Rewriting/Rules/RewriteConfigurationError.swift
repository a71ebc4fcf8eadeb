/// A configuration that cannot be used: unreadable file, malformed JSON, or a
/// rule whose field is invalid. The description names the rule and the field.
public struct RewriteConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Reason: Sendable, Hashable {
        case unreadable(path: String, problem: String)
        case malformed(problem: String)
        case invalidField(rule: String?, field: String, problem: String)
        case unknownPreset(name: String)
    }

    private let reason: Reason

    private init(_ reason: Reason) { self.reason = reason }

    static func unreadable(path: String, problem: String) -> Self {
        Self(.unreadable(path: path, problem: problem))
    }

    /// The file is not valid JSON (or not the expected shape); `problem` says why.
    public static func malformed(_ problem: String) -> Self { Self(.malformed(problem: problem)) }

    /// A field's value is invalid. `rule` is the rule's label (`rule 2
    /// ("photos")`), `nil` for top-level fields (`client.webpSupport`).
    public static func invalid(rule: String?, field: String, _ problem: String) -> Self {
        Self(.invalidField(rule: rule, field: field, problem: problem))
    }

    static func unknownPreset(_ name: String) -> Self { Self(.unknownPreset(name: name)) }

    /// The label of the rule at fault (`rule 2 ("photos")`), if any.
    public var rule: String? {
        if case .invalidField(let rule, _, _) = reason { return rule }
        return nil
    }

    /// The name of the field at fault (`width`, `styles.thumb`), if any.
    public var field: String? {
        if case .invalidField(_, let field, _) = reason { return field }
        return nil
    }

    /// Whether the error is an unknown preset name (a usage error on the command line).
    public var isUnknownPreset: Bool {
        if case .unknownPreset = reason { return true }
        return false
    }

    /// A readable message that says what is wrong and where.
    public var description: String {
        switch reason {
        case .unreadable(let path, let problem):
            return "cannot read configuration \(path): \(problem)"
        case .malformed(let problem):
            return "configuration is not valid JSON: \(problem)"
        case .invalidField(let rule?, let field, let problem):
            return "configuration \(rule), field '\(field)': \(problem)"
        case .invalidField(nil, let field, let problem):
            return "configuration field '\(field)': \(problem)"
        case .unknownPreset(let name):
            let names = RewritePreset.all.map(\.name).joined(separator: ", ")
            return "unknown preset '\(name)' (presets: \(names))"
        }
    }
}
