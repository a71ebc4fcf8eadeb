/// A user-given pattern such as `{scheme}://{host}{path}?{query}&format=webp&w={width}`,
/// parsed once into literal and placeholder pieces.
///
/// When the URL has no query, `{query}` is dropped together with the `?` or
/// `&` that would be left dangling, so that `?{query}&fm=webp` gives `?fm=webp`.
/// A URL that the pattern could have produced is recognised as already WebP,
/// which keeps rewriting idempotent.
struct TemplateDialect: DialectRewriting {
    enum Placeholder: String, CaseIterable, Sendable {
        case scheme, host, path, query, width, quality
    }

    enum Piece: Sendable, Equatable {
        case literal(String)
        case placeholder(Placeholder)
    }

    /// The pattern for URLs with a query.
    let pieces: [Piece]
    /// The pattern for URLs without a query.
    let piecesWithoutQuery: [Piece]
    let width: Int?
    let quality: Int?

    init(pattern: String, width: Int?, quality: Int?, rule: String) throws(RewriteConfigurationError) {
        var pieces: [Piece] = []
        var literal = ""
        var rest = pattern[...]
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            literal += rest[..<open]
            guard rest[open] == "{", let close = rest[open...].firstIndex(of: "}") else {
                throw .invalid(rule: rule, field: "template", "unbalanced braces in '\(pattern)'")
            }
            let name = rest[rest.index(after: open)..<close]
            guard let placeholder = Placeholder(rawValue: String(name)) else {
                let known = Placeholder.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ")
                throw .invalid(rule: rule, field: "template", "unknown placeholder {\(name)} (known: \(known))")
            }
            if placeholder == .width, width == nil {
                throw .invalid(rule: rule, field: "width", "the template uses {width}, so the rule needs a width")
            }
            if placeholder == .quality, quality == nil {
                throw .invalid(rule: rule, field: "quality", "the template uses {quality}, so the rule needs a quality")
            }
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            literal = ""
            pieces.append(.placeholder(placeholder))
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        let startsAbsolute: Bool
        switch pieces.first {
        case .placeholder(.scheme): startsAbsolute = true
        case .literal(let text): startsAbsolute = text.hasPrefix("http://") || text.hasPrefix("https://")
        default: startsAbsolute = false
        }
        guard startsAbsolute else {
            throw .invalid(
                rule: rule, field: "template", "must start with {scheme}:// or http(s):// (got '\(pattern)')")
        }
        self.pieces = pieces
        piecesWithoutQuery = Self.droppingQuery(pieces)
        self.width = width
        self.quality = quality
    }

    func rewrite(_ url: URLParts) -> DialectOutcome {
        let withoutFragment = url.string[
            ..<(url.fragment.map { url.string.index(before: $0.startIndex) } ?? url.string.endIndex)]
        if Self.matches(withoutFragment[...], pieces) || Self.matches(withoutFragment[...], piecesWithoutQuery) {
            return .alreadyWebP("matches the template")
        }
        let query = url.query ?? ""
        var result = ""
        for piece in query.isEmpty ? piecesWithoutQuery : pieces {
            switch piece {
            case .literal(let text): result += text
            case .placeholder(.scheme): result += url.scheme
            case .placeholder(.host): result += url.hostAndPort
            case .placeholder(.path): result += url.path
            case .placeholder(.query): result += query
            case .placeholder(.width): result += width.map(String.init) ?? ""
            case .placeholder(.quality): result += quality.map(String.init) ?? ""
            }
        }
        if let fragment = url.fragment { result += "#" + fragment }
        return .rewritten(result, detail: "applied the template")
    }

    /// The pattern with `{query}` removed and the `?`/`&` it leaves dangling cleaned up.
    static func droppingQuery(_ pieces: [Piece]) -> [Piece] {
        var result: [Piece] = []
        for piece in pieces where piece != .placeholder(.query) {
            if case .literal(let text) = piece, case .literal(let previous)? = result.last {
                result[result.count - 1] = .literal(previous + text)
            } else {
                result.append(piece)
            }
        }
        return result.enumerated().map { offset, piece in
            guard case .literal(var text) = piece else { return piece }
            text = text.replacing("?&", with: "?").replacing("&&", with: "&")
            if offset == result.count - 1 {
                while text.hasSuffix("?") || text.hasSuffix("&") { text.removeLast() }
            }
            return .literal(text)
        }
    }

    /// Whether `text` is what `pieces` could expand to: literals exactly,
    /// placeholders as a run of the characters their values can hold.
    static func matches(_ text: Substring, _ pieces: ArraySlice<Piece>) -> Bool {
        guard let piece = pieces.first else { return text.isEmpty }
        let rest = pieces.dropFirst()
        switch piece {
        case .literal(let literal):
            guard text.hasPrefix(literal) else { return false }
            return matches(text.dropFirst(literal.count), rest)
        case .placeholder(let placeholder):
            // Try every length the placeholder could take, shortest first.
            var end = text.startIndex
            while true {
                if (placeholder != .host && placeholder != .scheme) || end > text.startIndex || rest.isEmpty {
                    if matches(text[end...], rest) { return true }
                }
                guard end < text.endIndex, Self.mayContain(placeholder, text[end]) else { return false }
                end = text.index(after: end)
            }
        }
    }

    static func matches(_ text: Substring, _ pieces: [Piece]) -> Bool { matches(text, pieces[...]) }

    private static func mayContain(_ placeholder: Placeholder, _ character: Character) -> Bool {
        switch placeholder {
        case .scheme: character.isASCII && (character.isLetter || character.isNumber || "+-.".contains(character))
        case .host: character != "/" && character != "?" && character != "#"
        case .path: character != "?" && character != "#"
        case .query: character != "#"
        case .width, .quality: character.isASCII && character.isNumber
        }
    }
}
