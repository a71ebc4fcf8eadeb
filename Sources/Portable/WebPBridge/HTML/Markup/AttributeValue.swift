/// An attribute value as written and as a browser reads it: character
/// references decoded, with a map from each decoded byte back to where it
/// was written, so that an edit of the decoded text (a URL span) replaces
/// exactly the raw bytes it came from and everything else stays as written.
struct AttributeValue {
    /// The decoded bytes (UTF-8 for numeric references).
    private(set) var decoded: [UInt8] = []
    /// `rawOffsets[i]`: where the reference or byte that produced
    /// `decoded[i]` starts in the raw value; one more entry for the end.
    private(set) var rawOffsets: [Int] = []

    /// Decodes `raw`, or returns `nil` when it holds a named reference this
    /// decoder does not know and a browser might (then the value is left alone).
    init?(_ raw: ArraySlice<UInt8>) {
        decoded.reserveCapacity(raw.count)
        rawOffsets.reserveCapacity(raw.count + 1)
        let base = raw.startIndex
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            guard byte == UInt8(ascii: "&") else {
                append([byte], from: index - base)
                index += 1
                continue
            }
            switch CharacterReference.decode(raw, at: index) {
            case .literal:
                append([byte], from: index - base)
                index += 1
            case .decoded(let bytes, let length):
                append(bytes, from: index - base)
                index += length
            case .unknown:
                return nil
            }
        }
        rawOffsets.append(raw.count)
    }

    private mutating func append(_ bytes: [UInt8], from rawOffset: Int) {
        for byte in bytes {
            decoded.append(byte)
            rawOffsets.append(rawOffset)
        }
    }

    /// The raw range (offsets into the value as written) of the decoded range.
    func rawRange(of range: Range<Int>) -> Range<Int> {
        rawOffsets[range.lowerBound]..<rawOffsets[range.upperBound]
    }

    /// The decoded value as a string (for `rel` and `as`), lower-cased in ASCII.
    var lowercasedText: String {
        String(decoding: decoded.map(ASCII.lowercased), as: UTF8.self)
    }
}

/// Writing a URL into an attribute value: `&` always as `&amp;` (as a page
/// author writes it), the value's own quote as a reference, and in an
/// unquoted value whatever would end it.
enum AttributeEncoding {
    static func encode(_ text: String, quote: UInt8?) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): output += Array("&amp;".utf8)
            case UInt8(ascii: "\"") where quote != UInt8(ascii: "'"): output += Array("&quot;".utf8)
            case UInt8(ascii: "'") where quote != UInt8(ascii: "\""): output += Array("&#39;".utf8)
            case UInt8(ascii: "<") where quote == nil: output += Array("&lt;".utf8)
            case UInt8(ascii: ">") where quote == nil: output += Array("&gt;".utf8)
            case UInt8(ascii: "`") where quote == nil: output += Array("&#96;".utf8)
            case 0x09, 0x0A, 0x0C, 0x0D, 0x20:
                if quote == nil { output += Array("&#\(byte);".utf8) } else { output.append(byte) }
            default: output.append(byte)
            }
        }
        return output
    }
}
