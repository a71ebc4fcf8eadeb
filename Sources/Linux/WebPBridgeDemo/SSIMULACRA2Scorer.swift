package import Foundation

/// SSIMULACRA 2 scores (Cloudinary's perceptual metric: 100 is identical,
/// 90 visually lossless, 70 high quality, 50 medium) of image pairs, from
/// PyPI's `ssimulacra2` package run by a Python that has it (`make demo`
/// makes one in `.build/quality-venv`). One process scores every pair: it
/// reads a reference and a distorted PNG path per line, tab-separated, and
/// prints one score per line.
package struct SSIMULACRA2Scorer: Sendable {
    /// The Python interpreter with the `ssimulacra2` package.
    package var python: String
    /// The most pairs one run scores; more is refused.
    package static let maxPairs = 10_000

    package init(python: String) {
        self.python = python
    }

    /// What the interpreter runs: `compute_ssimulacra2(reference, distorted)`
    /// for each line of standard input.
    static let program = """
        import sys
        from ssimulacra2 import compute_ssimulacra2
        for line in sys.stdin:
            reference, distorted = line.rstrip("\\n").split("\\t")
            print(compute_ssimulacra2(reference, distorted), flush=True)
        """

    /// The score of each pair, in order.
    ///
    /// - Throws: ``DemoFailure`` when the interpreter cannot be started,
    ///   exits with an error, or does not print one number per pair.
    package func scores(of pairs: [(reference: URL, distorted: URL)]) throws -> [Double] {
        guard !pairs.isEmpty else { return [] }
        guard pairs.count <= Self.maxPairs else {
            throw DemoFailure("\(pairs.count) image pairs to score, more than \(Self.maxPairs)")
        }
        for pair in pairs {
            let paths = [pair.reference.path, pair.distorted.path]
            if paths.contains(where: { $0.contains("\t") || $0.contains("\n") }) {
                throw DemoFailure("cannot score \(pair.distorted.path): a tab or newline in its path")
            }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", Self.program]
        let input = Pipe()
        let output = Pipe()
        // Complaints go to a file, so that neither pipe can fill while the other is read.
        let errorsURL = FileManager.default.temporaryDirectory.appendingPathComponent(
            "webp-bridge-ssimulacra2-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: errorsURL) }
        process.standardInput = input
        process.standardOutput = output
        do {
            _ = FileManager.default.createFile(atPath: errorsURL.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: errorsURL)
            try process.run()
        } catch {
            throw DemoFailure("cannot run \(python) to score SSIMULACRA 2: \(error.localizedDescription)")
        }
        // Written from another thread, so that a full output pipe cannot stall both sides.
        let lines = pairs.map { "\($0.reference.path)\t\($0.distorted.path)\n" }.joined()
        let writer = Thread {
            try? input.fileHandleForWriting.write(contentsOf: Data(lines.utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let complaint = (try? Data(contentsOf: errorsURL)) ?? Data()
            let message = String(decoding: complaint.suffix(2_000), as: UTF8.self)
            throw DemoFailure("\(python) could not score SSIMULACRA 2 (exit \(process.terminationStatus)): \(message)")
        }
        let scores = String(decoding: printed, as: UTF8.self).split(separator: "\n").compactMap { Double($0) }
        guard scores.count == pairs.count else {
            throw DemoFailure("\(python) printed \(scores.count) SSIMULACRA 2 scores for \(pairs.count) pairs")
        }
        return scores
    }
}
