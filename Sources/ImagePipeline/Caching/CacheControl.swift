/// The directives of a `Cache-Control` header that a private client cache
/// acts on, parsed once.
struct CacheControl: Equatable {
    var noStore = false
    var noCache = false
    var maxAge: Int?
    var sharedMaxAge: Int?

    /// Parses `header` (e.g. `public, max-age=3600`). Unknown directives are
    /// ignored; a malformed `max-age` is treated as `0` (RFC 9111 §4.2.1:
    /// an invalid freshness value means stale), and a repeated one keeps the
    /// smallest value, the conservative reading.
    init(_ header: String?) {
        guard let header else { return }
        for directive in header.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1)
            let name = parts[0].trimmingWhitespace().lowercased()
            let argument = parts.count > 1 ? parts[1].trimmingWhitespace().trimmingQuotes() : nil
            switch name {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "max-age": maxAge = Self.smaller(maxAge, Self.seconds(argument))
            case "s-maxage": sharedMaxAge = Self.smaller(sharedMaxAge, Self.seconds(argument))
            default: break
            }
        }
    }

    private static func seconds(_ argument: Substring?) -> Int {
        guard let argument, !argument.isEmpty, argument.allSatisfy({ $0.isASCII && $0.isNumber }) else { return 0 }
        // RFC 9111 §1.2.2: a delta too large to represent means "a very long time".
        return Int(argument).map { min($0, Int(Int32.max)) } ?? Int(Int32.max)
    }

    private static func smaller(_ old: Int?, _ new: Int) -> Int { old.map { min($0, new) } ?? new }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> Substring {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map { index(after: $0) } ?? start
        return self[start..<Swift.max(start, end)]
    }

    fileprivate func trimmingQuotes() -> Substring {
        count >= 2 && first == "\"" && last == "\"" ? dropFirst().dropLast() : self
    }
}
