import Foundation

extension ChildProcess {
    /// Runs `curl -K` over `config` (curl's config-file syntax: one `url`
    /// block per request, separated by `next`), one process for thousands
    /// of requests, waiting on a thread of its own (``blocking(_:)``) so the
    /// wait never holds a worker that in-process servers' handlers need.
    ///
    /// - Parameters:
    ///   - config: The requests, in curl's config syntax.
    ///   - folder: Where the config file is written.
    /// - Throws: When `curl` is not installed or cannot be started.
    public static func curlBatch(_ config: String, in folder: TemporaryDirectory) async throws -> Outcome {
        guard let curl = ExternalTool.path("curl") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "curl is not installed"])
        }
        let file = folder.file("batch-\(UUID().uuidString).curl")
        try Data(config.utf8).write(to: file)
        return try await runOffThePool(curl, ["-sS", "--max-time", "240", "-K", file.path])
    }
}
