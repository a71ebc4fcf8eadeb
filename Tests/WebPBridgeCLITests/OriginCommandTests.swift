import Foundation
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import WebPBridgeCLI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct OriginCommandTests {
    @Test(arguments: [
        (["origin"], "missing --root DIR"),
        (["origin", "--root", "/tmp", "--listen", "8080"], "option '--listen' expects HOST:PORT, got '8080'"),
        (["origin", "--root", "/tmp", "--listen", "127.0.0.1:99999"], "needs a port 0-65535"),
        (["origin", "--root", "/tmp", "--quality", "0"], "option '--quality' must be between 1 and 100"),
        (["origin", "--root", "/tmp", "--webp-method", "7"], "option '--webp-method' must be between 0 and 6"),
        (["origin", "--root", "/tmp", "--webp-method", "fast"], "option '--webp-method'"),
        (["origin", "--root", "/tmp", "extra"], "unexpected argument 'extra'"),
        (["origin", "--root", "/tmp", "--memory-budget", "9T"], "expects a size such as 256M"),
        (["origin", "--root", "/tmp", "--memory-budget", "4096K"], "must be at least 16M"),
        (["origin", "--root", "/tmp", "--avif-sequences"], "--avif-sequences goes with --auto-format"),
    ])
    func usageErrorsExitTwo(arguments: [String], message: String) async {
        let result = await CapturedIO.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func theWebPMethodReachesTheTransformer() throws {
        let folder = try TemporaryDirectory()
        func method(_ extra: [String]) throws -> Int {
            let arguments = ["--root", folder.url.path] + extra
            let command = try OriginCommand(
                parsed: ParsedArguments(arguments, configuration: OriginCommand.configuration))
            return try command.makeOrigin().configuration.transformer.webpMethod
        }
        #expect(try method([]) == 4)
        #expect(try method(["--webp-method", "2"]) == 2)
        #expect(try method(["--webp-method", "0"]) == 0)
    }

    @Test func avifSequencesReachTheTransformer() throws {
        let folder = try TemporaryDirectory()
        func negotiates(_ extra: [String]) throws -> Bool {
            let arguments = ["--root", folder.url.path, "--auto-format"] + extra
            let command = try OriginCommand(
                parsed: ParsedArguments(arguments, configuration: OriginCommand.configuration))
            return try command.makeOrigin().configuration.transformer.negotiatesAVIFSequences
        }
        #expect(try !negotiates([]))
        #expect(try negotiates(["--avif-sequences"]))
    }

    @Test func badRootOrStylesExitOne() async throws {
        let folder = try TemporaryDirectory()
        let noFolder = await CapturedIO.run(["origin", "--root", folder.file("missing").path])
        #expect(noFolder.status == 1 && noFolder.stderr.contains("does not exist"))
        try Data(#"{"styles": {"s": "imageView2/9"}}"#.utf8).write(to: folder.file("styles.json"))
        let badStyles = await CapturedIO.run([
            "origin", "--root", folder.url.path, "--styles", folder.file("styles.json").path,
        ])
        #expect(badStyles.status == 1 && badStyles.stderr.contains("style 's'"))
    }

    /// The real binary: prints where it listens first, serves, logs one
    /// line per request, and stops cleanly on SIGTERM.
    @Test(.enabled(if: ChildProcess.webpBridgeBinary != nil, "webp-bridge binary not found beside the tests"))
    func servesLogsAndStopsOnSIGTERM() async throws {
        let folder = try TemporaryDirectory()
        try JPEGEncoder().encode(SyntheticImages.photo(width: 320, height: 240)).write(to: folder.file("a.jpg"))
        let process = Process()
        process.executableURL = ChildProcess.webpBridgeBinary!
        process.arguments = ["origin", "--root", folder.url.path, "--listen", "127.0.0.1:0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let reader = output.fileHandleForReading
        // Pipe reads and the wait for exit block: on a thread of their own.
        var text = try await reader.readThroughFirstLine()
        let firstLine = String(text.split(separator: "\n").first ?? "")
        #expect(firstLine.hasPrefix("listening on http://127.0.0.1:"))
        let base = String(firstLine.dropFirst("listening on ".count))

        let session = URLSession(configuration: .suiteBounded)
        let (data, response) = try await session.data(
            from: URL(string: base + "/a.jpg?imageView2/2/w/100/format/webp")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(try ImageInfo(data).width == 100)
        session.finishTasksAndInvalidate()

        process.terminate()  // SIGTERM
        text += try await blocking {
            process.waitUntilExit()
            return String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        }
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        #expect(text.contains("GET /a.jpg?imageView2/2/w/100/format/webp 200 "))
    }
}
