import Foundation
import WebPBridge

/// Converts many files on every core, with a progress line on a terminal and
/// a summary at the end. A file that fails is reported and skipped; the
/// command then exits 1.
struct BatchConversion: Sendable {
    var converter: ImageConverter
    var outputDirectory: String

    struct Outcome: Sendable {
        var input: String
        var bytesIn: Int
        var bytesOut: Int
        var error: String?
    }

    func run(_ files: [String], io: CommandIO) async throws {
        do {
            try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("\(outputDirectory): cannot create the output folder")
        }
        let clock = ContinuousClock()
        let start = clock.now
        let outcomes = await convertAll(files, io: io)
        let elapsed = clock.now - start
        if io.isTerminal { io.writeOutput("\r\u{1B}[K") }

        let failed = outcomes.filter { $0.error != nil }
        for failure in failed { io.printError("error: \(failure.input): \(failure.error!)") }
        let done = outcomes.filter { $0.error == nil }
        let bytesIn = done.reduce(0) { $0 + $1.bytesIn }
        let bytesOut = done.reduce(0) { $0 + $1.bytesOut }
        let saved = bytesIn > 0 ? 100 * (1 - Double(bytesOut) / Double(bytesIn)) : 0
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        io.print(
            "converted \(done.count) of \(files.count) files: \(bytesIn.formattedBytes) in,"
                + " \(bytesOut.formattedBytes) out, saved \(String(format: "%.1f", saved))%,"
                + " \(String(format: "%.2f", seconds)) s")
        if !failed.isEmpty { throw CommandFailure("\(failed.count) of \(files.count) files failed") }
    }

    /// Converts with at most one task per core.
    private func convertAll(_ files: [String], io: CommandIO) async -> [Outcome] {
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        return await withTaskGroup(of: (Int, Outcome).self) { group in
            var results = [Outcome?](repeating: nil, count: files.count)
            var next = 0
            var finished = 0
            func submit() {
                let index = next
                next += 1
                group.addTask { (index, convert(files[index])) }
            }
            while next < min(width, files.count) { submit() }
            while let (index, outcome) = await group.next() {
                results[index] = outcome
                finished += 1
                if io.isTerminal {
                    io.writeOutput(
                        "\r\u{1B}[K[\(finished)/\(files.count)] \((outcome.input as NSString).lastPathComponent)")
                }
                if next < files.count { submit() }
            }
            return results.map { $0! }
        }
    }

    private func convert(_ input: String) -> Outcome {
        let name = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
        let output = (outputDirectory as NSString).appendingPathComponent("\(name).\(converter.format.fileExtension)")
        do {
            let data = try InputFile.read(input)
            let converted = try converter.convert(data)
            try InputFile.write(converted, to: output)
            return Outcome(input: input, bytesIn: data.count, bytesOut: converted.count)
        } catch {
            return Outcome(input: input, bytesIn: 0, bytesOut: 0, error: "\(error)")
        }
    }
}
