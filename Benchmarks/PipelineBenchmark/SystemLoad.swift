import Foundation

/// The machine's load average, printed with the figures: on a shared
/// machine it says how much to trust them.
enum SystemLoad {
    /// `"1.52 1.70 1.80"` (1, 5 and 15 minutes), or `"unknown"` without `/proc`.
    static func average() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}
