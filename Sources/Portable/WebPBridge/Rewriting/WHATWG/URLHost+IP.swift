extension URLHost {
    /// Whether the domain's last label is a number, so it must be an IPv4 address.
    static func endsInANumber(_ domain: [UInt8]) -> Bool {
        var parts = domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.last?.isEmpty == true {
            if parts.count == 1 { return false }
            parts.removeLast()
        }
        guard let last = parts.last, !last.isEmpty else { return false }
        if last.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return true }
        return parseIPv4Number(last) != nil
    }

    /// The IPv4 parser: one to four parts, decimal, octal (`0` prefix) or hex (`0x`).
    static func parseIPv4(_ domain: [UInt8]) throws(URLParseError) -> UInt32 {
        var parts = domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.last?.isEmpty == true, parts.count > 1 { parts.removeLast() }
        guard parts.count <= 4 else { throw .ipv4Invalid }
        var numbers: [UInt64] = []
        for part in parts {
            guard let number = parseIPv4Number(part) else { throw .ipv4Invalid }
            numbers.append(number)
        }
        for number in numbers.dropLast() where number > 255 { throw .ipv4Invalid }
        let last = numbers[numbers.count - 1]
        guard last < (1 << (8 * UInt64(5 - numbers.count))) else { throw .ipv4Invalid }
        var address = last
        for (index, number) in numbers.dropLast().enumerated() {
            address += number << (8 * UInt64(3 - index))
        }
        return UInt32(address)
    }

    /// One IPv4 part, or `nil`; values above 2^32 are capped (they fail anyway).
    private static func parseIPv4Number(_ input: ArraySlice<UInt8>) -> UInt64? {
        guard !input.isEmpty else { return nil }
        var digits = input
        var radix: UInt64 = 10
        if digits.count >= 2, digits.first == UInt8(ascii: "0"),
            digits[digits.startIndex + 1] == UInt8(ascii: "x") || digits[digits.startIndex + 1] == UInt8(ascii: "X")
        {
            radix = 16
            digits = digits.dropFirst(2)
        } else if digits.count >= 2, digits.first == UInt8(ascii: "0") {
            radix = 8
            digits = digits.dropFirst()
        }
        var value: UInt64 = 0
        for byte in digits {
            guard let digit = hexValue(byte).map(UInt64.init), digit < radix else { return nil }
            value = min(value * radix + digit, 1 << 40)
        }
        return value
    }

    /// The IPv6 parser (the text between the brackets).
    static func parseIPv6(_ input: ArraySlice<UInt8>) throws(URLParseError) -> [UInt16] {
        var address = [UInt16](repeating: 0, count: 8)
        var pieceIndex = 0
        var compress: Int?
        var pointer = input.startIndex
        let end = input.endIndex
        func byte(_ at: Int) -> UInt8? { at < end ? input[at] : nil }
        if byte(pointer) == UInt8(ascii: ":") {
            guard byte(pointer + 1) == UInt8(ascii: ":") else { throw .ipv6Invalid }
            pointer += 2
            pieceIndex += 1
            compress = pieceIndex
        }
        while let current = byte(pointer) {
            guard pieceIndex != 8 else { throw .ipv6Invalid }
            if current == UInt8(ascii: ":") {
                guard compress == nil else { throw .ipv6Invalid }
                pointer += 1
                pieceIndex += 1
                compress = pieceIndex
                continue
            }
            var value: UInt16 = 0
            var length = 0
            while length < 4, let next = byte(pointer), let digit = hexValue(next) {
                value = value * 0x10 + UInt16(digit)
                pointer += 1
                length += 1
            }
            if byte(pointer) == UInt8(ascii: ".") {
                guard length != 0 else { throw .ipv6Invalid }
                pointer -= length
                guard pieceIndex <= 6 else { throw .ipv6Invalid }
                var numbersSeen = 0
                while let next = byte(pointer) {
                    var ipv4Piece: Int?
                    if numbersSeen > 0 {
                        guard next == UInt8(ascii: "."), numbersSeen < 4 else { throw .ipv6Invalid }
                        pointer += 1
                    }
                    guard let first = byte(pointer), first >= 0x30, first <= 0x39 else { throw .ipv6Invalid }
                    while let digitByte = byte(pointer), digitByte >= 0x30, digitByte <= 0x39 {
                        let number = Int(digitByte - 0x30)
                        if let piece = ipv4Piece {
                            guard piece != 0 else { throw .ipv6Invalid }
                            ipv4Piece = piece * 10 + number
                        } else {
                            ipv4Piece = number
                        }
                        guard ipv4Piece! <= 255 else { throw .ipv6Invalid }
                        pointer += 1
                    }
                    address[pieceIndex] = address[pieceIndex] * 0x100 + UInt16(ipv4Piece!)
                    numbersSeen += 1
                    if numbersSeen == 2 || numbersSeen == 4 { pieceIndex += 1 }
                }
                guard numbersSeen == 4 else { throw .ipv6Invalid }
                break
            } else if byte(pointer) == UInt8(ascii: ":") {
                pointer += 1
                guard byte(pointer) != nil else { throw .ipv6Invalid }
            } else if byte(pointer) != nil {
                throw .ipv6Invalid
            }
            address[pieceIndex] = value
            pieceIndex += 1
        }
        if let compress {
            var swaps = pieceIndex - compress
            pieceIndex = 7
            while pieceIndex != 0, swaps > 0 {
                address.swapAt(pieceIndex, compress + swaps - 1)
                pieceIndex -= 1
                swaps -= 1
            }
        } else if pieceIndex != 8 {
            throw .ipv6Invalid
        }
        return address
    }
}
