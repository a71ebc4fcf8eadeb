/// Builds and reads `Vary` (RFC 9110 §12.5.5): the request fields a
/// response depends on, or `*` when it depends on more than fields.
public enum VaryHeader {
    /// A `Vary` value listing `names` once each (compared in any case, the
    /// first spelling kept), in order; `*` when any of them is `*`.
    /// - Parameter names: Field names, e.g. `["Accept", "User-Agent"]`.
    public static func value(listing names: [String]) -> String {
        var unique: [Substring] = []
        var seen: Set<String> = []  // lower-cased: a hostile upstream's long list stays linear
        for name in names {
            for element in name.split(separator: ",") {
                let field = element.trimmingSpacesAndTabs
                if field.isEmpty { continue }
                if field == "*" { return "*" }
                if seen.insert(field.lowercased()).inserted { unique.append(field) }
            }
        }
        return unique.joined(separator: ", ")
    }

    /// `existing` (a `Vary` value, or `nil` when there is none) with the
    /// field names in `fields` added after it, each once whatever its case;
    /// `*` on either side absorbs everything.
    /// - Parameters:
    ///   - fields: Names to add, comma-separated: `Accept, User-Agent`.
    ///   - existing: The response's `Vary` so far.
    public static func merging(_ fields: String, into existing: String?) -> String {
        value(listing: [existing ?? "", fields])
    }

    /// Whether `value` (a `Vary` value) lists `*`: the response varies on
    /// more than request fields, so no cache can tell when to reuse it.
    public static func containsWildcard(_ value: String?) -> Bool {
        guard let value else { return false }
        return value.split(separator: ",").contains { $0.trimmingSpacesAndTabs == "*" }
    }
}
