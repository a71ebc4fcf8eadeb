import Foundation

/// Text for the bridge's log: what a client is not told (internal URLs,
/// the loader's diagnostics), made safe to write — credentials in URLs
/// replaced by `***`, control bytes escaped so that one event stays one line.
enum LogText {
    /// `text` with every URL's user info (`scheme://user:pass@`) replaced by
    /// `***` and control bytes escaped (`\r` → `\x0d`).
    static func line(_ text: String) -> String {
        escapingControlBytes(redactingCredentials(text))
    }

    /// `text` with the user info of every `scheme://user:pass@host` replaced
    /// by `***`.
    static func redactingCredentials(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let separator = rest.range(of: "://") {
            result += rest[..<separator.upperBound]
            rest = rest[separator.upperBound...]
            let authorityEnd = rest.firstIndex { "/?# \t\r\n\"'<>".contains($0) } ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@") {
                result += "***"
                rest = rest[at...]
            }
        }
        return result + rest
    }

    /// `text` with C0 controls and DEL written as `\xHH`.
    static func escapingControlBytes(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7f {
                let hex = String(scalar.value, radix: 16)
                result += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
