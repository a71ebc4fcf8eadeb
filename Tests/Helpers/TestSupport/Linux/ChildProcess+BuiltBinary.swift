public import Foundation

extension ChildProcess {
    /// The `cache-writer` binary (the kill -9 test's child) that `swift test`
    /// built next to the test bundle, or `nil` when it is not there.
    public static var cacheWriterBinary: URL? { builtBinary(named: "cache-writer") }

    /// The executable `name` that SwiftPM built next to the test bundle, found
    /// the way ``webpBridgeBinary`` is, or `nil` when it is not there.
    public static func builtBinary(named name: String) -> URL? {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ]
        for folder in candidates {
            let binary = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
        }
        return nil
    }
}
