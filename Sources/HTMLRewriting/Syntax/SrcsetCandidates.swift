/// The URLs of a `srcset` (or `imagesrcset`) value, found as the HTML
/// standard's parser finds them (§4.8.4.3.10): a candidate's URL is a run of
/// non-whitespace, so commas inside it belong to it and only trailing commas
/// end it; descriptors (`480w`, `2x`, also with parentheses) are skipped.
enum SrcsetCandidates {
    /// The ranges of the candidates' URLs in `value` (decoded bytes).
    static func urlRanges(in value: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var position = 0
        let count = value.count
        while true {
            while position < count, ASCII.isWhitespace(value[position]) || value[position] == UInt8(ascii: ",") {
                position += 1
            }
            guard position < count else { return ranges }
            let start = position
            while position < count, !ASCII.isWhitespace(value[position]) { position += 1 }
            var end = position
            if value[end - 1] == UInt8(ascii: ",") {
                while end > start, value[end - 1] == UInt8(ascii: ",") { end -= 1 }
                if end > start { ranges.append(start..<end) }
                continue
            }
            ranges.append(start..<end)
            // Descriptors, up to a comma outside parentheses.
            var depth = 0
            while position < count {
                let byte = value[position]
                if byte == UInt8(ascii: "(") {
                    depth += 1
                } else if byte == UInt8(ascii: ")") {
                    depth = max(0, depth - 1)
                } else if byte == UInt8(ascii: ","), depth == 0 {
                    break
                }
                position += 1
            }
        }
    }
}
