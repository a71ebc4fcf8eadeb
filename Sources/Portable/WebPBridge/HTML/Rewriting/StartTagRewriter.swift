/// Rewrites the image URLs of one complete start tag, and adopts a
/// `<base href>`. Everything outside the replaced URL spans — other
/// attributes, quotes, spacing, case, references in untouched text —
/// stays byte for byte as written.
///
/// The attributes: `<img src srcset>`, `<source srcset>` (in `<picture>`),
/// `<link rel=preload as=image href imagesrcset>`, and the `url(...)`s of
/// any element's `style`. Not `<meta property=og:image content>`: that
/// image is fetched by other sites' crawlers, which may not decode WebP.
/// When an attribute is repeated, only the first counts, as in a browser.
enum StartTagRewriter {
    private enum Kind {
        case url
        case srcset
        case css
    }

    /// The tag with its URLs replaced and how many were, or `nil` when none was.
    static func rewrite(
        _ tag: [UInt8], scanner: TagScanner, resolver: inout VariantResolver
    ) -> (tag: [UInt8], count: Int)? {
        var firstByName: [String: TagScanner.Attribute] = [:]
        for attribute in scanner.attributes {
            let name = String(
                decoding: tag[attribute.nameStart..<attribute.nameEnd].map(ASCII.lowercased), as: UTF8.self)
            if firstByName[name] == nil { firstByName[name] = attribute }
        }
        if scanner.nameIs("base") {
            if let href = firstByName["href"]?.value { resolver.adoptDocumentBase(tag[href]) }
            return nil
        }
        var targets: [(TagScanner.Attribute, Kind)] = []
        // The tree builder makes `<image>` an `img`.
        if scanner.nameIs("img") || scanner.nameIs("image") {
            targets += [firstByName["src"].map { ($0, .url) }, firstByName["srcset"].map { ($0, .srcset) }]
                .compactMap { $0 }
        } else if scanner.nameIs("source") {
            if let srcset = firstByName["srcset"] { targets.append((srcset, .srcset)) }
        } else if scanner.nameIs("link"), preloadsImage(tag, firstByName) {
            targets += [firstByName["href"].map { ($0, .url) }, firstByName["imagesrcset"].map { ($0, .srcset) }]
                .compactMap { $0 }
        }
        if let style = firstByName["style"] { targets.append((style, .css)) }

        var edits: [(range: Range<Int>, bytes: [UInt8])] = []
        for (attribute, kind) in targets {
            guard let valueRange = attribute.value, !valueRange.isEmpty,
                let value = AttributeValue(tag[valueRange])
            else { continue }
            for (decodedRange, text) in replacements(in: value.decoded, kind: kind, resolver: resolver) {
                let raw = value.rawRange(of: decodedRange)
                edits.append(
                    (
                        (valueRange.lowerBound + raw.lowerBound)..<(valueRange.lowerBound + raw.upperBound),
                        AttributeEncoding.encode(text, quote: attribute.quote)
                    ))
            }
        }
        guard !edits.isEmpty else { return nil }
        edits.sort { $0.range.lowerBound < $1.range.lowerBound }
        var output: [UInt8] = []
        output.reserveCapacity(tag.count + edits.count * 64)
        var cursor = 0
        for edit in edits where edit.range.lowerBound >= cursor {
            output += tag[cursor..<edit.range.lowerBound]
            output += edit.bytes
            cursor = edit.range.upperBound
        }
        output += tag[cursor...]
        return (output, edits.count)
    }

    /// The decoded ranges to replace in one attribute value, with their new text (not yet encoded).
    private static func replacements(
        in decoded: [UInt8], kind: Kind, resolver: VariantResolver
    ) -> [(Range<Int>, String)] {
        switch kind {
        case .url:
            let range = VariantResolver.trimmedRange(decoded[...])
            return resolver.variant(for: decoded[range]).map { [(range, $0)] } ?? []
        case .srcset:
            return SrcsetCandidates.urlRanges(in: decoded).compactMap { range in
                resolver.variant(for: decoded[range]).map { (range, $0) }
            }
        case .css:
            return CSSURLs.spans(in: decoded).compactMap { span in
                let range = VariantResolver.trimmedRange(decoded[span.range])
                return resolver.variant(for: decoded[range]).map { (range, CSSURLs.escape($0, quote: span.quote)) }
            }
        }
    }

    /// `rel` lists `preload` and `as` is `image` (ASCII case-insensitive).
    private static func preloadsImage(_ tag: [UInt8], _ attributes: [String: TagScanner.Attribute]) -> Bool {
        guard let rel = attributes["rel"]?.value, let kind = attributes["as"]?.value,
            let relValue = AttributeValue(tag[rel]), let asValue = AttributeValue(tag[kind])
        else { return false }
        let relTokens = relValue.lowercasedText.split(whereSeparator: { $0.isASCII && $0.isWhitespace })
        return relTokens.contains("preload") && asValue.lowercasedText == "image"
    }
}
