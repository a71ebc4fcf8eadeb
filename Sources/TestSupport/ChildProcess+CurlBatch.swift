import Foundation

extension ChildProcess {
    /// Runs `curl -K` over `config` (curl's config-file syntax: one `url`
    /// block per request, separated by `next`), one process for thousands
    /// of requests, waiting on a Dispatch thread so the wait never holds a
    /// thread of the cooperative pool that in-process servers need.
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
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try run(curl, ["-sS", "--max-time", "240", "-K", file.path]) })
            }
        }
    }
}
