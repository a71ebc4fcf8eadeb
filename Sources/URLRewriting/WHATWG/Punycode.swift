/// RFC 3492 Punycode decoding, to check the `xn--` labels of an ASCII host.
enum Punycode {
    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 128

    /// Checks one `xn--` label's Punycode (without the prefix): invalid
    /// Punycode and an all-ASCII result are failures (UTS #46 §4.1);
    /// a label this parser cannot validate without the UTS #46 tables
    /// (mapped, right-to-left, joiners, symbols) is refused as unsupported.
    static func validateLabel(_ encoded: ArraySlice<UInt8>) throws(URLParseError) {
        guard let decoded = decode(encoded) else { throw .punycodeInvalid }
        // `xn--` alone decodes to nothing, and the standard's data accepts it.
        if decoded.isEmpty { return }
        guard decoded.contains(where: { !$0.isASCII }) else { throw .punycodeInvalid }
        for (index, scalar) in decoded.enumerated() {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                let ok =
                    (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-")
                guard ok else { throw .idnaUnsupported }
                continue
            }
            let properties = scalar.properties
            let category = properties.generalCategory
            let isLetterOrDigit =
                category == .lowercaseLetter || category == .otherLetter || category == .decimalNumber
                || category == .modifierLetter
            let isMark = category == .nonspacingMark || category == .spacingMark
            guard isLetterOrDigit || (isMark && index > 0), !properties.changesWhenNFKCCaseFolded,
                !isRightToLeft(scalar.value)
            else { throw .idnaUnsupported }
        }
        let text = String(String.UnicodeScalarView(decoded))
        guard text.unicodeScalars.elementsEqual(decoded), isNFC(decoded) else { throw .idnaUnsupported }
    }

    /// Whether no scalar would change under canonical composition: only
    /// scalars that are their own NFC (no canonical decomposition, not a
    /// composing mark after a base) are accepted; others are left to a full IDNA.
    private static func isNFC(_ scalars: [Unicode.Scalar]) -> Bool {
        for scalar in scalars where scalar.properties.canonicalCombiningClass != .notReordered {
            return false
        }
        return true
    }

    /// Hebrew, Arabic, Syriac, Thaana, N'Ko… and their presentation forms:
    /// the Bidi rule would have to be checked.
    private static func isRightToLeft(_ value: UInt32) -> Bool {
        (0x0590...0x08FF).contains(value) || (0xFB1D...0xFDFF).contains(value) || (0xFE70...0xFEFF).contains(value)
            || (0x10800...0x10FFF).contains(value) || (0x1E800...0x1EFFF).contains(value)
    }

    /// The code points `encoded` stands for, or `nil` when it is not valid Punycode.
    static func decode(_ encoded: ArraySlice<UInt8>) -> [Unicode.Scalar]? {
        var output: [Unicode.Scalar] = []
        var rest = encoded
        if let delimiter = encoded.lastIndex(of: UInt8(ascii: "-")) {
            for byte in encoded[encoded.startIndex..<delimiter] {
                guard byte < 0x80 else { return nil }
                output.append(Unicode.Scalar(byte))
            }
            rest = encoded[(delimiter + 1)...]
        }
        var n = initialN
        var bias = initialBias
        var i = 0
        var index = rest.startIndex
        while index < rest.endIndex {
            let oldI = i
            var w = 1
            var k = base
            while true {
                guard index < rest.endIndex, let digit = digitValue(rest[index]) else { return nil }
                index += 1
                let (product, overflow1) = digit.multipliedReportingOverflow(by: w)
                let (sum, overflow2) = i.addingReportingOverflow(product)
                guard !overflow1, !overflow2, sum <= Int(Int32.max) else { return nil }
                i = sum
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if digit < t { break }
                let (nextW, overflow3) = w.multipliedReportingOverflow(by: base - t)
                guard !overflow3, nextW <= Int(Int32.max) else { return nil }
                w = nextW
                k += base
            }
            bias = adapt(delta: i - oldI, count: output.count + 1, first: oldI == 0)
            n += i / (output.count + 1)
            i %= output.count + 1
            guard n <= 0x10FFFF, let scalar = Unicode.Scalar(UInt32(n)) else { return nil }
            output.insert(scalar, at: i)
            i += 1
            guard output.count <= 256 else { return nil }
        }
        return output
    }

    private static func adapt(delta: Int, count: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0")) + 26
        default: nil
        }
    }
}
