import Foundation

/// How many images are decoded at once by default
/// (``ImagePipeline/Configuration/decodingConcurrency``), per platform.
public enum DecodingConcurrency {
    /// The default on this platform for this machine's active cores.
    public static var `default`: Int {
        recommended(for: .current, cores: ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The default decoding concurrency of `platform` with `cores` cores:
    /// - iOS, tvOS, watchOS, visionOS: 1. Decoding is off the main thread,
    ///   but the app's own work and the system's compete for the same few
    ///   cores and memory; one decode at a time bounds peak decode memory to
    ///   one image (``DecodingLimits/mobile``: 200 MB at most) and is what
    ///   Nuke does (its `imageDecodingQueue` runs one operation at a time).
    ///   Scrolling lists stay fed: a downsampled photo decodes in
    ///   milliseconds, and requests run in priority order.
    /// - macOS: 2 (or 1 on one core): more memory and cores, still an app
    ///   whose user works in other apps too.
    /// - A server (Linux): every core, as before; its work is bounded by
    ///   ``DecodingLimits/serverWorkPixels`` and its queues.
    public static func recommended(for platform: PlatformKind, cores: Int) -> Int {
        let cores = max(1, cores)
        switch platform {
        case .iOS, .tvOS, .watchOS, .visionOS: return 1
        case .macOS: return min(2, cores)
        case .server: return cores
        }
    }
}
