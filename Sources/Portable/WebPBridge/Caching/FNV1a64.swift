/// The 64-bit FNV-1a hash, used for entry file names and entry checksums.
///
/// Chosen over CRC-32 because it needs no table and gives 64 bits, so a torn
/// or flipped entry slips through with odds of about 2⁻⁶⁴; it is not a
/// cryptographic hash, and nothing here needs one (keys are checked in full).
struct FNV1a64 {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    private(set) var value: UInt64

    init(basis: UInt64 = FNV1a64.offsetBasis) {
        value = basis
    }

    /// Feeds `bytes` into the hash.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        let pointer = base.assumingMemoryBound(to: UInt8.self)
        var hash = value
        let count = bytes.count
        var index = 0
        // An index loop rather than `for byte in bytes`: several times faster
        // in debug builds, which the tests and the kill -9 writer run.
        while index < count {
            hash = (hash ^ UInt64(pointer[index])) &* Self.prime
            index += 1
        }
        value = hash
    }

    /// Feeds the bytes of a collection into the hash.
    mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        var hash = value
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* Self.prime
        }
        value = hash
    }
}
