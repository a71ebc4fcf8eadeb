public import Foundation

/// The bodies `cache-writer` stores, derived from the key alone, so the kill
/// -9 test can tell a whole entry from a torn or mixed-up one without any
/// record of what was written.
public enum CacheWriterBodies {
    /// The key of the `index`th entry written by run `run`, shaped like a
    /// rewritten image URL.
    public static func key(run: Int, index: Int) -> String {
        "http://img.example.com/run\(run)/photo\(index).jpg?imageView2/2/w/750/format/webp"
    }

    /// The body length for `key`: 1 KiB to 2 MiB, spread over powers of two
    /// so small entries (the common case) and large ones (long writes, the
    /// likely place for a kill to land) both occur.
    public static func length(for key: String) -> Int {
        let seed = seed(for: key)
        let base = 1024 << Int(seed % 11)  // 1 KiB ... 1 MiB
        return base + Int((seed >> 8) % UInt64(base))  // ... up to 2 MiB
    }

    /// The body for `key`: ``length(for:)`` bytes of a SplitMix64 stream
    /// seeded by the key.
    public static func body(for key: String) -> Data {
        let count = length(for: key)
        var state = seed(for: key)
        var data = Data(count: count)
        data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
            var offset = 0
            while offset < count {
                state &+= 0x9e37_79b9_7f4a_7c15
                var mixed = state
                mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
                mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
                mixed ^= mixed >> 31
                if count - offset >= 8 {
                    // A word at a time: this runs unoptimised in the tests.
                    buffer.storeBytes(of: mixed.littleEndian, toByteOffset: offset, as: UInt64.self)
                } else {
                    for shift in 0..<(count - offset) {
                        buffer[offset + shift] = UInt8(truncatingIfNeeded: mixed >> (8 * UInt64(shift)))
                    }
                }
                offset += 8
            }
        }
        return data
    }

    private static func seed(for key: String) -> UInt64 {
        key.utf8.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }
}
