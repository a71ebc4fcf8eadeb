/// Counts the scans (`SOS` segments) of a JPEG by walking its segment
/// structure, without decoding: marker segments are skipped by their
/// length, and entropy-coded data byte by byte up to the next marker that is
/// neither a stuffed `FF 00` nor a restart marker (`FF D0`–`FF D7`). Linear
/// in the input's size.
///
/// A progressive JPEG may carry thousands of scans, and a decoder does the
/// whole image's work again for each (a 94 KB file of 5,000 scans took 13
/// seconds), so ``DecodingLimits/checkInput(_:format:)``, which the Linux
/// JPEG decoder and ``ImageIOCodec`` call first, refuses one with more scans
/// than ``DecodingLimits/maxScans`` before decoding.
package enum JPEGScanCounter {
    /// The number of scans in `bytes`, counting no further than `limit + 1`
    /// (enough to tell that a limit is exceeded). A truncated or damaged
    /// stream yields the scans found before the damage; the decoder reports
    /// the damage itself.
    package static func count(_ bytes: UnsafeRawBufferPointer, stoppingAbove limit: Int = .max) -> Int {
        let end = bytes.count
        guard end >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return 0 }
        var scans = 0
        var index = 2
        while index < end {
            // A marker: one or more 0xFF fill bytes, then the code.
            guard bytes[index] == 0xFF else { return scans }
            while index < end && bytes[index] == 0xFF { index += 1 }
            guard index < end else { return scans }
            let code = bytes[index]
            index += 1
            switch code {
            case 0xD9:  // EOI
                return scans
            case 0x01, 0xD0...0xD8:  // TEM, RSTn, SOI: no length
                continue
            default:
                guard index + 2 <= end else { return scans }
                let length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
                guard length >= 2 else { return scans }
                index += length
                guard code == 0xDA else { continue }  // SOS
                scans += 1
                if scans > limit { return scans }
                index = endOfEntropyCodedData(bytes, from: index)
            }
        }
        return scans
    }

    /// The index of the first marker at or after `start` that ends a scan's
    /// entropy-coded data (its `FF`), or the end of `bytes`.
    private static func endOfEntropyCodedData(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        let end = bytes.count
        while true {
            index = firstFF(in: bytes, from: index)
            guard index + 1 < end else { return end }
            let next = bytes[index + 1]
            if next == 0x00 || (0xD0...0xD7).contains(next) {
                index += 2  // stuffed zero or restart marker: still inside the scan
            } else if next == 0xFF {
                index += 1  // fill byte before a marker
            } else {
                return index
            }
        }
    }

    /// The index of the first `FF` byte at or after `start`, or the end of
    /// `bytes`. Entropy-coded data is almost all of a JPEG and `FF` is rare
    /// in it, so the search steps over 32 bytes at a time: a 1 MB photo's
    /// count went from most of a millisecond to a small part of one, which
    /// every decode pays.
    private static func firstFF(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        let end = bytes.count
        let marker = SIMD32<UInt8>(repeating: 0xFF)
        while index + 32 <= end {
            let chunk = bytes.loadUnaligned(fromByteOffset: index, as: SIMD32<UInt8>.self)
            if any(chunk .== marker) { break }
            index += 32
        }
        while index < end && bytes[index] != 0xFF { index += 1 }
        return index
    }
}
