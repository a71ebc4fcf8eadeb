import Foundation
import PortabilityCheck
import TestSupport
import TestTraits
import Testing

/// The built `portability-check` and the dump-package run it makes.
@Suite(.timeLimit(.suiteBound))
struct PortabilityCommandTests {
    static var binary: URL? { ChildProcess.builtBinary(named: "portability-check") }

    @Test func aViolationPrintsFileLineAndExitsOne() throws {
        let binary = try #require(Self.binary, "swift build builds portability-check next to the tests")
        let folder = try TemporaryDirectory(prefix: "portability-command")
        try FakePackage.single("import Foundation\nimport Glibc\n").write(into: folder)
        let outcome = try ChildProcess.run(
            binary, ["--package-path", folder.url.path, "--dump-file", folder.file("dump.json").path], timeout: 60)
        #expect(outcome.exitStatus == 1, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n")
        #expect(
            lines.first?.hasPrefix("Sources/A/File.swift:2: unguarded import of Glibc") == true, "\(outcome.stdout)")
        #expect(
            lines.last.map(String.init)
                == "portability check: 1 products, 1 targets, 1 Swift files; floor iOS 16.0, macOS 13.0, Swift 6.0; "
                + "1 violation")
    }

    @Test func aCleanPackageExitsZero() throws {
        let binary = try #require(Self.binary)
        let folder = try TemporaryDirectory(prefix: "portability-command")
        try FakePackage.single("#if canImport(Glibc)\nimport Glibc\n#endif\n").write(into: folder)
        let outcome = try ChildProcess.run(
            binary, ["--package-path", folder.url.path, "--dump-file", folder.file("dump.json").path], timeout: 60)
        #expect(outcome.exitStatus == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasSuffix("no violations\n"))
    }

    @Test func aUsageErrorExitsTwo() throws {
        let binary = try #require(Self.binary)
        let outcome = try ChildProcess.run(binary, ["--frobnicate"], timeout: 60)
        #expect(outcome.exitStatus == 2)
        #expect(outcome.stderr.hasPrefix("portability-check: unknown argument '--frobnicate'\nusage:"))
    }

    /// A real manifest that reads WEBP_BRIDGE_MANIFEST_PLATFORM, as the
    /// project's does: its Apple view drops the system library, so the same
    /// package passes only because the variable reached the manifest.
    @Test func theManifestIsEvaluatedAsAnAppleBuildSeesIt() throws {
        let folder = try TemporaryDirectory(prefix: "portability-manifest")
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription

            let apple = Context.environment["WEBP_BRIDGE_MANIFEST_PLATFORM"] == "apple"
            let package = Package(
                name: "Probe",
                platforms: [.iOS(.v16), .macOS(.v13)],
                products: [.library(name: "Core", targets: ["Core"])],
                targets: apple
                    ? [.target(name: "Core")]
                    : [.target(name: "Core", dependencies: ["CSys"]), .systemLibrary(name: "CSys")]
            )

            """
        for (path, contents) in [
            "Package.swift": manifest, "Sources/Core/Core.swift": "public let core = 1\n",
            "Sources/CSys/module.modulemap": "module CSys [system] { header \"shim.h\" }\n",
            "Sources/CSys/shim.h": "\n",
        ] {
            let url = folder.file(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        let swift = ProcessInfo.processInfo.environment["SWIFT"] ?? "swift"
        let dump = try ManifestDump.appleView(of: folder.url, swift: swift)
        let report = try PortabilityCheck(packageRoot: folder.url).run(dump: dump)
        #expect(report.passed, "\(report.text)")
        #expect(report.scannedTargets == ["Core"])
        #expect(report.floors == [.iOS: OSVersion(16, 0), .macOS: OSVersion(13, 0)])
    }
}
