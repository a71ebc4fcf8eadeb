/// "Prescan a byte stream to determine its encoding" (HTML §13.2.3.3): the
/// first `<meta>` of the first 1,024 bytes that names an encoding, skipping
/// comments and the attributes of other tags as a browser does.
struct MetaPrescan {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    private struct OutOfBytes: Error {}

    /// The encoding named, or `nil` (none, or the window ended first).
    mutating func run() -> HTMLEncoding? {
        do {
            while position < bytes.count {
                if matches("<!--") {
                    position += 4
                    try skip(past: Array("-->".utf8))
                } else if matchesCaseInsensitive("<meta"), position + 5 < bytes.count,
                    Self.isSpace(bytes[position + 5]) || bytes[position + 5] == UInt8(ascii: "/")
                {
                    position += 5
                    if let encoding = try meta() { return encoding }
                } else if matches("<"), position + 1 < bytes.count,
                    ASCII.isAlpha(bytes[position + 1])
                        || (bytes[position + 1] == UInt8(ascii: "/") && position + 2 < bytes.count
                            && ASCII.isAlpha(bytes[position + 2]))
                {
                    while position < bytes.count, !Self.isSpace(bytes[position]), bytes[position] != UInt8(ascii: ">") {
                        position += 1
                    }
                    while try attribute() != nil {}
                } else if matches("<!") || matches("</") || matches("<?") {
                    try skip(past: [UInt8(ascii: ">")])
                }
                position += 1
            }
        } catch {
            return nil
        }
        return nil
    }

    /// The attributes of a `<meta>`, from after its name.
    private mutating func meta() throws -> HTMLEncoding? {
        var seen: Set<[UInt8]> = []
        var gotPragma = false
        var needPragma: Bool?
        var charset: HTMLEncoding?
        var charsetFailed = false
        while let (name, value) = try attribute() {
            guard seen.insert(name).inserted else { continue }
            if name.elementsEqual("http-equiv".utf8), value.elementsEqual("content-type".utf8) {
                gotPragma = true
            } else if name.elementsEqual("content".utf8), charset == nil, !charsetFailed,
                let label = Self.charsetInContent(value),
                let encoding = HTMLEncoding(label: String(decoding: label, as: UTF8.self))
            {
                charset = encoding
                needPragma = true
            } else if name.elementsEqual("charset".utf8) {
                charset = HTMLEncoding(label: String(decoding: value, as: UTF8.self))
                charsetFailed = charset == nil
                needPragma = false
            }
        }
        guard let needPragma, !needPragma || gotPragma, !charsetFailed, var encoding = charset else { return nil }
        if encoding == .utf16BE || encoding == .utf16LE { encoding = .utf8 }
        if encoding.name == "x-user-defined" { encoding = .windows1252 }
        return encoding
    }

    /// "Get an attribute": the next name and value (both lower-cased), or `nil` at the tag's `>`.
    private mutating func attribute() throws -> ([UInt8], [UInt8])? {
        while try byte() == UInt8(ascii: "/") || Self.isSpace(try byte()) { position += 1 }
        if try byte() == UInt8(ascii: ">") { return nil }
        var name: [UInt8] = []
        var value: [UInt8] = []
        nameLoop: while true {
            let byte = try byte()
            if byte == UInt8(ascii: "="), !name.isEmpty {
                position += 1
                break nameLoop
            }
            if Self.isSpace(byte) {
                while Self.isSpace(try self.byte()) { position += 1 }
                guard try self.byte() == UInt8(ascii: "=") else { return (name, value) }
                position += 1
                break nameLoop
            }
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") { return (name, value) }
            name.append(ASCII.lowercased(byte))
            position += 1
        }
        while Self.isSpace(try byte()) { position += 1 }
        let first = try byte()
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            position += 1
            while true {
                let byte = try byte()
                position += 1
                if byte == first { return (name, value) }
                value.append(ASCII.lowercased(byte))
            }
        }
        if first == UInt8(ascii: ">") { return (name, value) }
        while true {
            let byte = try byte()
            if Self.isSpace(byte) || byte == UInt8(ascii: ">") { return (name, value) }
            value.append(ASCII.lowercased(byte))
            position += 1
        }
    }

    /// "Extract a character encoding from a meta element": the label after `charset=` in a `content` value.
    static func charsetInContent(_ content: [UInt8]) -> ArraySlice<UInt8>? {
        let word = Array("charset".utf8)
        var position = 0
        while position + word.count <= content.count {
            guard content[position..<(position + word.count)].map(ASCII.lowercased).elementsEqual(word) else {
                position += 1
                continue
            }
            position += word.count
            while position < content.count, isSpace(content[position]) { position += 1 }
            guard position < content.count, content[position] == UInt8(ascii: "=") else { continue }
            position += 1
            while position < content.count, isSpace(content[position]) { position += 1 }
            guard position < content.count else { return nil }
            let first = content[position]
            if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
                guard let end = content[(position + 1)...].firstIndex(of: first) else { return nil }
                return content[(position + 1)..<end]
            }
            let end = content[position...].firstIndex { isSpace($0) || $0 == UInt8(ascii: ";") } ?? content.count
            return content[position..<end]
        }
        return nil
    }

    private func byte() throws -> UInt8 {
        guard position < bytes.count else { throw OutOfBytes() }
        return bytes[position]
    }

    /// Moves to the last byte of the next `marker`.
    private mutating func skip(past marker: [UInt8]) throws {
        while position + marker.count <= bytes.count {
            if bytes[position..<(position + marker.count)].elementsEqual(marker) {
                position += marker.count - 1
                return
            }
            position += 1
        }
        throw OutOfBytes()
    }

    private func matches(_ text: String) -> Bool {
        bytes[position...].starts(with: text.utf8)
    }

    private func matchesCaseInsensitive(_ text: String) -> Bool {
        bytes.count - position >= text.utf8.count
            && bytes[position..<(position + text.utf8.count)].map(ASCII.lowercased).elementsEqual(text.utf8)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { ASCII.isWhitespace(byte) }
}
