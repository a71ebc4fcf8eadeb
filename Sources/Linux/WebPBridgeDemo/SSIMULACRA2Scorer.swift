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
        // The pairs are read from a file and complaints written to one: no pipe to write into (a
        // scorer that dies early would raise SIGPIPE), and none that can fill while another is read.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "webp-bridge-ssimulacra2-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let pairsURL = scratch.appendingPathComponent("pairs.tsv")
        let errorsURL = scratch.appendingPathComponent("errors.log")
        let output = Pipe()
        process.standardOutput = output
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            try Data(pairs.map { "\($0.reference.path)\t\($0.distorted.path)\n" }.joined().utf8).write(to: pairsURL)
            _ = FileManager.default.createFile(atPath: errorsURL.path, contents: nil)
            process.standardInput = try FileHandle(forReadingFrom: pairsURL)
            process.standardError = try FileHandle(forWritingTo: errorsURL)
            try process.run()
        } catch {
            throw DemoFailure("cannot run \(python) to score SSIMULACRA 2: \(error.localizedDescription)")
        }
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
