#if os(Linux)
    import Foundation
#endif

/// The process's resident memory, for the `/metrics` endpoints: what the
/// operating system actually gives the process, whatever the caches
/// account.
public enum ResidentMemory {
    /// Bytes resident now (`VmRSS` in `/proc/self/status`); `nil` where it
    /// cannot be read (every platform but Linux, for now).
    public static var currentBytes: Int? { statusField("VmRSS:") }

    /// The most bytes ever resident (`VmHWM`); `nil` where it cannot be read.
    public static var peakBytes: Int? { statusField("VmHWM:") }

    /// A `kB` field of `/proc/self/status`, in bytes.
    private static func statusField(_ name: String) -> Int? {
        #if os(Linux)
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
            for line in status.split(separator: "\n") where line.hasPrefix(name) {
                // "VmRSS:\t  123456 kB": a tab, then spaces.
                let fields = line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard let kilobytes = fields.first.flatMap({ Int($0) }) else { return nil }
                return kilobytes * 1024
            }
            return nil
        #else
            return nil
        #endif
    }
}
