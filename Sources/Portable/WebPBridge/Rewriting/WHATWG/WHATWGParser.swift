/// The WHATWG URL standard's basic URL parser (without state override),
/// over UTF-8 bytes: every delimiter is ASCII, and every byte of a non-ASCII
/// code point is percent-encoded, so bytes give the standard's results.
struct WHATWGParser {
    private enum State {
        case schemeStart, scheme, noScheme, specialRelativeOrAuthority, pathOrAuthority, relative
        case relativeSlash, specialAuthoritySlashes, specialAuthorityIgnoreSlashes, authority, host, port
        case file, fileSlash, fileHost, pathStart, path, opaquePath, query, fragment
    }

    private let input: [UInt8]
    private let base: WHATWGURL?
    private var url = WHATWGURL(scheme: "")
    private var state = State.schemeStart
    private var buffer: [UInt8] = []
    private var pointer = 0
    private var atSignSeen = false
    private var insideBrackets = false
    private var passwordTokenSeen = false
    private var segments: [String] = []
    private var opaquePath: [UInt8]?
    private var query: [UInt8]?
    private var fragment: [UInt8]?
    private var special = false

    init(input: String, base: WHATWGURL?) {
        // Leading and trailing C0 controls and spaces go, then every tab and newline.
        var bytes = Array(input.utf8)
        var end = bytes.count
        while end > 0, bytes[end - 1] <= 0x20 { end -= 1 }
        var start = 0
        while start < end, bytes[start] <= 0x20 { start += 1 }
        bytes = bytes[start..<end].filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        self.input = bytes
        self.base = base
    }

    private func byte(at index: Int) -> UInt8? {
        index >= 0 && index < input.count ? input[index] : nil
    }

    /// Whether `remaining` (the bytes after the pointer) starts with `byte`.
    private func remainingStarts(with expected: UInt8) -> Bool { byte(at: pointer + 1) == expected }

    private var baseSegments: [String] {
        if case .segments(let segments) = base?.path { return segments }
        return []
    }

    mutating func parse() throws(URLParseError) -> WHATWGURL {
        while true {
            let c = byte(at: pointer)
            try step(c)
            if pointer >= input.count { break }
            pointer += 1
        }
        if let opaquePath {
            url.path = .opaque(String(decoding: opaquePath, as: UTF8.self))
        } else {
            url.path = .segments(segments)
        }
        url.query = query.map { String(decoding: $0, as: UTF8.self) }
        url.fragment = fragment.map { String(decoding: $0, as: UTF8.self) }
        return url
    }

    private func isSlash(_ c: UInt8?) -> Bool {
        c == UInt8(ascii: "/") || (special && c == UInt8(ascii: "\\"))
    }

    private func isEndOfAuthority(_ c: UInt8?) -> Bool {
        c == nil || isSlash(c) || c == UInt8(ascii: "?") || c == UInt8(ascii: "#")
    }

    // The states, each as the standard words it.
    private mutating func step(_ c: UInt8?) throws(URLParseError) {
        switch state {
        case .schemeStart:
            if let c, isASCIIAlpha(c) {
                buffer.append(lower(c))
                state = .scheme
            } else {
                state = .noScheme
                pointer -= 1
            }
        case .scheme:
            if let c, isASCIIAlpha(c) || isASCIIDigit(c) || c == 0x2B || c == 0x2D || c == 0x2E {
                buffer.append(lower(c))
            } else if c == UInt8(ascii: ":") {
                url.scheme = String(decoding: buffer, as: UTF8.self)
                special = WHATWGURL.isSpecialScheme(url.scheme)
                buffer = []
                if url.scheme == "file" {
                    state = .file
                } else if special, let base, base.scheme == url.scheme {
                    state = .specialRelativeOrAuthority
                } else if special {
                    state = .specialAuthoritySlashes
                } else if remainingStarts(with: UInt8(ascii: "/")) {
                    state = .pathOrAuthority
                    pointer += 1
                } else {
                    opaquePath = []
                    state = .opaquePath
                }
            } else {
                buffer = []
                state = .noScheme
                pointer = -1
            }
        case .noScheme:
            guard let base else { throw .missingSchemeNonRelativeURL }
            if case .opaque = base.path {
                guard c == UInt8(ascii: "#") else { throw .missingSchemeNonRelativeURL }
                url.scheme = base.scheme
                special = base.isSpecial
                if case .opaque(let text) = base.path { opaquePath = Array(text.utf8) }
                query = base.query.map { Array($0.utf8) }
                fragment = []
                state = .fragment
            } else if base.scheme != "file" {
                state = .relative
                pointer -= 1
            } else {
                state = .file
                pointer -= 1
            }
        case .specialRelativeOrAuthority:
            if c == UInt8(ascii: "/"), remainingStarts(with: UInt8(ascii: "/")) {
                state = .specialAuthorityIgnoreSlashes
                pointer += 1
            } else {
                state = .relative
                pointer -= 1
            }
        case .pathOrAuthority:
            if c == UInt8(ascii: "/") {
                state = .authority
            } else {
                state = .path
                pointer -= 1
            }
        case .relative:
            let base = base!
            url.scheme = base.scheme
            special = base.isSpecial
            if isSlash(c) {
                state = .relativeSlash
            } else {
                copyAuthority(from: base)
                segments = baseSegments
                query = base.query.map { Array($0.utf8) }
                if c == UInt8(ascii: "?") {
                    query = []
                    state = .query
                } else if c == UInt8(ascii: "#") {
                    fragment = []
                    state = .fragment
                } else if c != nil {
                    query = nil
                    shortenPath()
                    state = .path
                    pointer -= 1
                }
            }
        case .relativeSlash:
            if isSlash(c) && special {
                state = .specialAuthorityIgnoreSlashes
            } else if c == UInt8(ascii: "/") {
                state = .authority
            } else {
                copyAuthority(from: base!)
                state = .path
                pointer -= 1
            }
        case .specialAuthoritySlashes:
            if c == UInt8(ascii: "/"), remainingStarts(with: UInt8(ascii: "/")) {
                state = .specialAuthorityIgnoreSlashes
                pointer += 1
            } else {
                state = .specialAuthorityIgnoreSlashes
                pointer -= 1
            }
        case .specialAuthorityIgnoreSlashes:
            if c != UInt8(ascii: "/") && c != UInt8(ascii: "\\") {
                state = .authority
                pointer -= 1
            }
        case .authority:
            try authority(c)
        case .host:
            try host(c)
        case .port:
            try port(c)
        case .file, .fileSlash, .fileHost:
            try file(c)
        case .pathStart:
            if special {
                state = .path
                if c != UInt8(ascii: "/") && c != UInt8(ascii: "\\") { pointer -= 1 }
            } else if c == UInt8(ascii: "?") {
                query = []
                state = .query
            } else if c == UInt8(ascii: "#") {
                fragment = []
                state = .fragment
            } else if c != nil {
                state = .path
                if c != UInt8(ascii: "/") { pointer -= 1 }
            }
        case .path:
            path(c)
        case .opaquePath:
            if c == UInt8(ascii: "?") {
                query = []
                state = .query
            } else if c == UInt8(ascii: "#") {
                fragment = []
                state = .fragment
            } else if c == UInt8(ascii: " "),
                byte(at: pointer + 1) == UInt8(ascii: "?") || byte(at: pointer + 1) == UInt8(ascii: "#")
            {
                // A space before the query or fragment would be lost when serialised.
                opaquePath!.append(contentsOf: "%20".utf8)
            } else if let c {
                PercentEncodeSet.c0Control.append(c, to: &opaquePath!)
            }
        case .query:
            if c == UInt8(ascii: "#") {
                fragment = []
                state = .fragment
            } else if let c {
                (special ? PercentEncodeSet.specialQuery : .query).append(c, to: &query!)
            }
        case .fragment:
            if let c { PercentEncodeSet.fragment.append(c, to: &fragment!) }
        }
    }

    private mutating func copyAuthority(from base: WHATWGURL) {
        url.username = base.username
        url.password = base.password
        url.host = base.host
        url.port = base.port
    }

    private mutating func authority(_ c: UInt8?) throws(URLParseError) {
        if c == UInt8(ascii: "@") {
            if atSignSeen { buffer.insert(contentsOf: "%40".utf8, at: 0) }
            atSignSeen = true
            var username = Array(url.username.utf8)
            var password = Array(url.password.utf8)
            for byte in buffer {
                if byte == UInt8(ascii: ":"), !passwordTokenSeen {
                    passwordTokenSeen = true
                    continue
                }
                if passwordTokenSeen {
                    PercentEncodeSet.userinfo.append(byte, to: &password)
                } else {
                    PercentEncodeSet.userinfo.append(byte, to: &username)
                }
            }
            url.username = String(decoding: username, as: UTF8.self)
            url.password = String(decoding: password, as: UTF8.self)
            buffer = []
        } else if isEndOfAuthority(c) {
            if atSignSeen, buffer.isEmpty { throw .hostMissing }
            pointer -= buffer.count + 1
            buffer = []
            state = .host
        } else if let c {
            buffer.append(c)
        }
    }

    private mutating func host(_ c: UInt8?) throws(URLParseError) {
        if c == UInt8(ascii: ":"), !insideBrackets {
            guard !buffer.isEmpty else { throw .hostMissing }
            url.host = try URLHost.parse(buffer[...], isOpaque: !special)
            buffer = []
            state = .port
        } else if isEndOfAuthority(c) {
            pointer -= 1
            if special, buffer.isEmpty { throw .hostMissing }
            url.host = try URLHost.parse(buffer[...], isOpaque: !special)
            buffer = []
            state = .pathStart
        } else if let c {
            if c == UInt8(ascii: "[") { insideBrackets = true }
            if c == UInt8(ascii: "]") { insideBrackets = false }
            buffer.append(c)
        }
    }

    private mutating func port(_ c: UInt8?) throws(URLParseError) {
        if let c, isASCIIDigit(c) {
            // Leading zeros are allowed; more than 5 significant digits is out of range anyway.
            if !(buffer.isEmpty && c == UInt8(ascii: "0")) || !buffer.isEmpty { buffer.append(c) }
            if buffer.count > 5 { throw .portOutOfRange }
        } else if isEndOfAuthority(c) {
            if !buffer.isEmpty || byte(at: pointer - 1) == UInt8(ascii: "0") {
                let value = buffer.reduce(0) { $0 * 10 + Int($1 - 0x30) }
                guard value <= 65_535 else { throw .portOutOfRange }
                url.port = value == WHATWGURL.defaultPort(url.scheme) ? nil : value
                buffer = []
            }
            state = .pathStart
            pointer -= 1
        } else {
            throw .portInvalid
        }
    }

    private mutating func path(_ c: UInt8?) {
        if c == nil || isSlash(c) || c == UInt8(ascii: "?") || c == UInt8(ascii: "#") {
            let endsSegment = isSlash(c)
            if isDoubleDot(buffer) {
                shortenPath()
                if !endsSegment { segments.append("") }
            } else if isSingleDot(buffer) {
                if !endsSegment { segments.append("") }
            } else {
                if url.scheme == "file", segments.isEmpty, isWindowsDriveLetter(buffer[...]) {
                    buffer[1] = UInt8(ascii: ":")
                }
                segments.append(String(decoding: buffer, as: UTF8.self))
            }
            buffer = []
            if c == UInt8(ascii: "?") {
                query = []
                state = .query
            } else if c == UInt8(ascii: "#") {
                fragment = []
                state = .fragment
            }
        } else if let c {
            PercentEncodeSet.path.append(c, to: &buffer)
        }
    }

    private mutating func shortenPath() {
        if url.scheme == "file", segments.count == 1, isNormalizedWindowsDriveLetter(Array(segments[0].utf8)[...]) {
            return
        }
        if !segments.isEmpty { segments.removeLast() }
    }

    // MARK: file

    private mutating func file(_ c: UInt8?) throws(URLParseError) {
        switch state {
        case .file:
            url.scheme = "file"
            special = true
            url.host = .empty
            if c == UInt8(ascii: "/") || c == UInt8(ascii: "\\") {
                state = .fileSlash
            } else if let base, base.scheme == "file" {
                url.host = base.host
                segments = baseSegments
                query = base.query.map { Array($0.utf8) }
                if c == UInt8(ascii: "?") {
                    query = []
                    state = .query
                } else if c == UInt8(ascii: "#") {
                    fragment = []
                    state = .fragment
                } else if c != nil {
                    query = nil
                    if !startsWithWindowsDriveLetter(at: pointer) {
                        shortenPath()
                    } else {
                        segments = []
                    }
                    state = .path
                    pointer -= 1
                }
            } else {
                state = .path
                pointer -= 1
            }
        case .fileSlash:
            if c == UInt8(ascii: "/") || c == UInt8(ascii: "\\") {
                state = .fileHost
            } else {
                if let base, base.scheme == "file" {
                    url.host = base.host
                    if !startsWithWindowsDriveLetter(at: pointer), let first = baseSegments.first,
                        isNormalizedWindowsDriveLetter(Array(first.utf8)[...])
                    {
                        segments.append(first)
                    }
                }
                state = .path
                pointer -= 1
            }
        default:
            if c == nil || c == UInt8(ascii: "/") || c == UInt8(ascii: "\\") || c == UInt8(ascii: "?")
                || c == UInt8(ascii: "#")
            {
                pointer -= 1
                if isWindowsDriveLetter(buffer[...]) {
                    state = .path
                } else if buffer.isEmpty {
                    url.host = .empty
                    state = .pathStart
                } else {
                    var host = try URLHost.parse(buffer[...], isOpaque: false)
                    if host == .domain("localhost") { host = .empty }
                    url.host = host
                    buffer = []
                    state = .pathStart
                }
            } else if let c {
                buffer.append(c)
            }
        }
    }

    private func startsWithWindowsDriveLetter(at index: Int) -> Bool {
        guard index + 1 < input.count, isWindowsDriveLetter(input[index..<(index + 2)]) else { return false }
        if index + 2 == input.count { return true }
        switch input[index + 2] {
        case UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: "?"), UInt8(ascii: "#"): return true
        default: return false
        }
    }

    private func isWindowsDriveLetter(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.count == 2 && isASCIIAlpha(bytes.first!)
            && (bytes.last == UInt8(ascii: ":") || bytes.last == UInt8(ascii: "|"))
    }

    private func isNormalizedWindowsDriveLetter(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.count == 2 && isASCIIAlpha(bytes.first!) && bytes.last == UInt8(ascii: ":")
    }

    private func isSingleDot(_ bytes: [UInt8]) -> Bool {
        bytes == [0x2E] || (bytes.count == 3 && bytes[0] == 0x25 && bytes[1] == 0x32 && lower(bytes[2]) == 0x65)
    }

    private func isDoubleDot(_ bytes: [UInt8]) -> Bool {
        switch bytes.count {
        case 2: return bytes == [0x2E, 0x2E]
        case 4:
            return (bytes[0] == 0x2E && isSingleDot(Array(bytes[1...])))
                || (bytes[3] == 0x2E && isSingleDot(Array(bytes[..<3])))
        case 6: return isSingleDot(Array(bytes[..<3])) && isSingleDot(Array(bytes[3...]))
        default: return false
        }
    }

    private func isASCIIAlpha(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
    private func isASCIIDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    private func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c + 0x20 : c }
}
