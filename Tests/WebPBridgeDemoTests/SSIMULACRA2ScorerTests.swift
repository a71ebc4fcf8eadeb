import Foundation
import Glibc
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import WebPBridgeDemo

/// The demo's SSIMULACRA 2 scoring: one interpreter run for every pair,
/// and every way it can go wrong reported as a ``DemoFailure``.
@Suite(.timeLimit(.suiteBound))
struct SSIMULACRA2ScorerTests {
    /// The Python `make demo` installs PyPI's ssimulacra2 into, when it is there.
    static let venvPython: String? = {
        let python = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../.build/quality-venv/bin/python").standardized.path
        return FileManager.default.isExecutableFile(atPath: python) ? python : nil
    }()

    /// A stand-in interpreter: a shell script that ignores its arguments and runs `body`.
    ///
    /// Written through a descriptor opened close-on-exec: a child that
    /// another test forks while the script is being written would otherwise
    /// inherit the descriptor, and running the script would then fail with
    /// ETXTBSY ("text file busy"), as one CI run did.
    static func fakeInterpreter(_ body: String, in folder: TemporaryDirectory) throws -> String {
        let path = folder.file("python").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let script = Array("#!/bin/sh\n\(body)\n".utf8)
        let written = script.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == script.count else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return path
    }

    static func pairs(_ count: Int, in folder: TemporaryDirectory) -> [(reference: URL, distorted: URL)] {
        (0..<count).map { (folder.file("r\($0).png"), folder.file("d\($0).png")) }
    }

    @Test(
        "identical images score 100 and a blurred one less",
        .enabled(if: venvPython != nil, "no .build/quality-venv with PyPI ssimulacra2 (make demo makes it)"))
    func scoresRealPairs() throws {
        let folder = try TemporaryDirectory(prefix: "ssimulacra2")
        let photo = SyntheticImages.photo(width: 96, height: 64)
        let blurred = try ImageResizer().resize(
            try ImageResizer().resize(photo, width: 24, height: 16), width: 96, height: 64)
        try PNGEncoder().encode(photo).write(to: folder.file("a.png"))
        try PNGEncoder().encode(blurred).write(to: folder.file("b.png"))
        let scores = try SSIMULACRA2Scorer(python: #require(Self.venvPython)).scores(of: [
            (folder.file("a.png"), folder.file("a.png")), (folder.file("a.png"), folder.file("b.png")),
        ])
        #expect(scores.count == 2)
        #expect(abs(scores[0] - 100) < 0.01, "identical: \(scores[0])")
        #expect(scores[1] < 90, "blurred: \(scores[1])")
    }

    @Test("one line a pair in, one score a pair out, in order")
    func readsOneScorePerPair() throws {
        let folder = try TemporaryDirectory(prefix: "ssimulacra2")
        // Echoes a score from each line's position: 1, 2, 3.
        let python = try Self.fakeInterpreter("awk '{ print NR }'", in: folder)
        #expect(try SSIMULACRA2Scorer(python: python).scores(of: Self.pairs(3, in: folder)) == [1, 2, 3])
        #expect(try SSIMULACRA2Scorer(python: python).scores(of: []) == [])
    }

    @Test(
        "a missing interpreter, an error exit and a wrong count are refused with a clear message",
        arguments: [
            ("missing", "cannot run"),
            ("echo 'no module named ssimulacra2' >&2; exit 1", "no module named ssimulacra2"),
            ("cat >/dev/null; echo 50", "printed 1 SSIMULACRA 2 scores for 2 pairs"),
            ("cat >/dev/null; echo fifty; echo 60", "printed 1 SSIMULACRA 2 scores for 2 pairs"),
        ])
    func refusesBrokenScorers(body: String, message: String) throws {
        let folder = try TemporaryDirectory(prefix: "ssimulacra2")
        let python = body == "missing" ? folder.file("none").path : try Self.fakeInterpreter(body, in: folder)
        #expect {
            try SSIMULACRA2Scorer(python: python).scores(of: Self.pairs(2, in: folder))
        } throws: { error in
            (error as? DemoFailure)?.message.contains(message) == true
        }
    }

    @Test("more pairs than the bound, or a tab in a path, are refused before anything runs")
    func refusesUnboundedOrAmbiguousInput() throws {
        let folder = try TemporaryDirectory(prefix: "ssimulacra2")
        let scorer = SSIMULACRA2Scorer(python: folder.file("never-run").path)
        #expect(throws: DemoFailure.self) {
            try scorer.scores(of: Self.pairs(SSIMULACRA2Scorer.maxPairs + 1, in: folder))
        }
        #expect {
            try scorer.scores(of: [(folder.file("a\tb.png"), folder.file("c.png"))])
        } throws: { error in
            (error as? DemoFailure)?.message.contains("a tab or newline") == true
        }
    }
}
