import Foundation

/// The test process's resident memory, from `/proc/self/status`, for
/// tests that show a memory bound holds.
public enum ResidentMemory {
    /// `VmRSS` in bytes now, or `nil` where `/proc` is missing.
    public static var current: Int? { field("VmRSS") }

    /// `VmHWM` (the peak of `VmRSS`) in bytes, or `nil` where `/proc` is missing.
    public static var peak: Int? { field("VmHWM") }

    private static func field(_ name: String) -> Int? {
        // Read, not stat-sized: /proc files report a size of 0.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/status") else { return nil }
        defer { try? handle.close() }
        let status = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let kilobytes = line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
                .flatMap { Int($0) }
            return kilobytes.map { $0 * 1024 }
        }
        return nil
    }
}
