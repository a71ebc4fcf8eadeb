/// The image candidates of a `srcset` (or `imagesrcset`) value, found by
/// the HTML standard's "parse a srcset attribute" (§4.8.4.3.10), step for
/// step: a candidate's URL is a run of non-whitespace (commas inside it
/// belong to it, trailing ones end it), and its descriptors run to the next
/// comma outside parentheses (an unclosed `(` takes the rest). The
/// descriptor parser then says whether a browser keeps the candidate.
enum SrcsetCandidates {
    /// One candidate: where its URL is in the value, and whether its
    /// descriptors are valid (a browser drops it when they are not).
    struct Candidate: Equatable {
        var url: Range<Int>
        var isValid: Bool
    }

    /// The ranges of the candidates' URLs in `value` (decoded bytes),
    /// valid descriptors or not: a browser never fetches a dropped
    /// candidate, so naming its variant costs nothing, and one that reads
    /// descriptors more leniently than the standard still gets the variant.
    static func urlRanges(in value: [UInt8]) -> [Range<Int>] {
        candidates(in: value).map(\.url)
    }

    /// Every candidate of `value`, in order.
    static func candidates(in value: [UInt8]) -> [Candidate] {
        var candidates: [Candidate] = []
        var position = 0
        let count = value.count
        while true {
            // Splitting loop.
            while position < count, ASCII.isWhitespace(value[position]) || value[position] == UInt8(ascii: ",") {
                position += 1
            }
            guard position < count else { return candidates }
            let start = position
            while position < count, !ASCII.isWhitespace(value[position]) { position += 1 }
            var end = position
            if value[end - 1] == UInt8(ascii: ",") {
                while end > start, value[end - 1] == UInt8(ascii: ",") { end -= 1 }
                candidates.append(Candidate(url: start..<end, isValid: true))
                continue
            }
            let descriptors = tokenizeDescriptors(value, from: &position)
            candidates.append(Candidate(url: start..<end, isValid: descriptorsAreValid(descriptors, in: value)))
        }
    }

    /// The descriptor tokenizer: the descriptors after a URL, as ranges, up
    /// to and past the comma that ends the candidate (or the end).
    private static func tokenizeDescriptors(_ value: [UInt8], from position: inout Int) -> [Range<Int>] {
        enum State {
            case inDescriptor
            case inParens
            case afterDescriptor
        }
        while position < value.count, ASCII.isWhitespace(value[position]) { position += 1 }
        var descriptors: [Range<Int>] = []
        var current: Range<Int>?
        var state = State.inDescriptor
        func add(_ byte: Int) { current = (current?.lowerBound ?? byte)..<(byte + 1) }
        func flush() {
            if let range = current { descriptors.append(range) }
            current = nil
        }
        while true {
            let byte: UInt8? = position < value.count ? value[position] : nil
            switch state {
            case .inDescriptor:
                guard let byte else {
                    flush()
                    return descriptors
                }
                if ASCII.isWhitespace(byte) {
                    flush()
                    state = .afterDescriptor
                } else if byte == UInt8(ascii: ",") {
                    position += 1
                    flush()
                    return descriptors
                } else {
                    add(position)
                    if byte == UInt8(ascii: "(") { state = .inParens }
                }
            case .inParens:
                guard let byte else {
                    flush()
                    return descriptors
                }
                add(position)
                if byte == UInt8(ascii: ")") { state = .inDescriptor }
            case .afterDescriptor:
                guard let byte else { return descriptors }
                if !ASCII.isWhitespace(byte) {
                    state = .inDescriptor
                    continue
                }
            }
            position += 1
        }
    }

    /// The descriptor parser: at most one of width (`480w`, not 0) or
    /// density (`2x`, not negative), an optional height (`100h`, not 0)
    /// only with a width, nothing else.
    private static func descriptorsAreValid(_ descriptors: [Range<Int>], in value: [UInt8]) -> Bool {
        var width = false
        var density = false
        var height = false
        for range in descriptors {
            let descriptor = value[range]
            let number = descriptor.dropLast()
            switch descriptor.last {
            case UInt8(ascii: "w") where isNonNegativeInteger(number):
                if width || density || isZero(number) { return false }
                width = true
            case UInt8(ascii: "x") where isFloatingPointNumber(number):
                if width || density || height || number.first == UInt8(ascii: "-") && !isZero(number) {
                    return false
                }
                density = true
            case UInt8(ascii: "h") where isNonNegativeInteger(number):
                if height || density || isZero(number) { return false }
                height = true
            default:
                return false
            }
        }
        return !height || width
    }

    private static func isNonNegativeInteger(_ bytes: ArraySlice<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(ASCII.isDigit)
    }

    /// Whether every digit (of the mantissa) is 0.
    private static func isZero(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
            .allSatisfy { !ASCII.isDigit($0) || $0 == UInt8(ascii: "0") }
    }

    /// A valid floating-point number: `-`?, digits with an optional
    /// fraction (or a fraction alone), an optional exponent.
    private static func isFloatingPointNumber(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        while index < bytes.endIndex, ASCII.isDigit(bytes[index]) { index += 1 }
        var digits = index > integerStart
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < bytes.endIndex, ASCII.isDigit(bytes[index]) { index += 1 }
            guard index > fractionStart else { return false }
            digits = true
        }
        guard digits else { return false }
        if index < bytes.endIndex, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                index += 1
            }
            let exponentStart = index
            while index < bytes.endIndex, ASCII.isDigit(bytes[index]) { index += 1 }
            guard index > exponentStart else { return false }
        }
        return index == bytes.endIndex
    }
}
