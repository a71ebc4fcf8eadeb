/// The tokenizer's script data states (WHATWG §13.2.5.4, .15–.31), one
/// byte at a time, as far as they decide where a `<script>` ends: inside
/// `<!--` a `<script>` starts a double-escaped section in which
/// `</script>` does not end the element (only `-->` or a second
/// `</script>` leave it), so `<script><!--<script></script><img>--></script>`
/// is one script, its `img` text.
struct ScriptData {
    private enum State {
        case data
        case lessThan
        case endTagOpen
        case endTagName
        case escapeStart
        case escapeStartDash
        case escaped
        case escapedDash
        case escapedDashDash
        case escapedLessThan
        case escapedEndTagOpen
        case escapedEndTagName
        case doubleEscapeStart
        case doubleEscaped
        case doubleEscapedDash
        case doubleEscapedDashDash
        case doubleEscapedLessThan
        case doubleEscapeEnd
    }

    private static let name = Array("script".utf8)

    private var state = State.data
    /// How much of `script` the tag name read so far matches; -1 once it cannot.
    private var matched = 0

    /// Whether the script is in its plain data state, where only `<` matters.
    var isInPlainData: Bool { state == .data }

    /// Whether `byte` follows a complete `</script` (any case) that ends the
    /// element: it is the space, `/` or `>` of the end tag.
    mutating func endsScript(at byte: UInt8) -> Bool {
        while true {
            switch step(byte) {
            case .consumed: return false
            case .ends: return true
            case .reconsume: continue
            }
        }
    }

    private enum Step {
        case consumed
        case ends
        case reconsume
    }

    private var nameIsScript: Bool { matched == Self.name.count }

    private mutating func startName() { matched = 0 }

    private mutating func appendName(_ byte: UInt8) {
        guard matched >= 0 else { return }
        matched = matched < Self.name.count && ASCII.lowercased(byte) == Self.name[matched] ? matched + 1 : -1
    }

    private static func isTagEnd(_ byte: UInt8) -> Bool {
        ASCII.isWhitespace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
    }

    private mutating func step(_ byte: UInt8) -> Step {
        let dash = UInt8(ascii: "-")
        let lessThan = UInt8(ascii: "<")
        switch state {
        case .data:
            if byte == lessThan { state = .lessThan }
        case .lessThan:
            if byte == UInt8(ascii: "/") {
                startName()
                state = .endTagOpen
            } else if byte == UInt8(ascii: "!") {
                state = .escapeStart
            } else {
                state = .data
                return .reconsume
            }
        case .endTagOpen, .escapedEndTagOpen:
            let inEscape = state == .escapedEndTagOpen
            guard ASCII.isAlpha(byte) else {
                state = inEscape ? .escaped : .data
                return .reconsume
            }
            state = inEscape ? .escapedEndTagName : .endTagName
            return .reconsume
        case .endTagName, .escapedEndTagName:
            if Self.isTagEnd(byte), nameIsScript { return .ends }
            if ASCII.isAlpha(byte) {
                appendName(byte)
            } else {
                state = state == .escapedEndTagName ? .escaped : .data
                return .reconsume
            }
        case .escapeStart, .escapeStartDash:
            guard byte == dash else {
                state = .data
                return .reconsume
            }
            state = state == .escapeStart ? .escapeStartDash : .escapedDashDash
        case .escaped, .escapedDash, .escapedDashDash:
            if byte == dash {
                state = state == .escaped ? .escapedDash : .escapedDashDash
            } else if byte == lessThan {
                state = .escapedLessThan
            } else if byte == UInt8(ascii: ">"), state == .escapedDashDash {
                state = .data
            } else {
                state = .escaped
            }
        case .escapedLessThan:
            if byte == UInt8(ascii: "/") {
                startName()
                state = .escapedEndTagOpen
            } else if ASCII.isAlpha(byte) {
                startName()
                state = .doubleEscapeStart
                return .reconsume
            } else {
                state = .escaped
                return .reconsume
            }
        case .doubleEscapeStart, .doubleEscapeEnd:
            let starting = state == .doubleEscapeStart
            if Self.isTagEnd(byte) {
                // `<script` enters the double escape, `</script` leaves it.
                state = nameIsScript == starting ? .doubleEscaped : .escaped
            } else if ASCII.isAlpha(byte) {
                appendName(byte)
            } else {
                state = starting ? .escaped : .doubleEscaped
                return .reconsume
            }
        case .doubleEscaped, .doubleEscapedDash, .doubleEscapedDashDash:
            if byte == dash {
                state = state == .doubleEscaped ? .doubleEscapedDash : .doubleEscapedDashDash
            } else if byte == lessThan {
                state = .doubleEscapedLessThan
            } else if byte == UInt8(ascii: ">"), state == .doubleEscapedDashDash {
                state = .data
            } else {
                state = .doubleEscaped
            }
        case .doubleEscapedLessThan:
            if byte == UInt8(ascii: "/") {
                startName()
                state = .doubleEscapeEnd
            } else {
                state = .doubleEscaped
                return .reconsume
            }
        }
        return .consumed
    }
}
