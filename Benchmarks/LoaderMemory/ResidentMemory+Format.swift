import Foundation
import WebPBridge

extension ResidentMemory {
    /// `bytes` in MB with one decimal, as the benchmark's lines print it.
    static func format(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}
