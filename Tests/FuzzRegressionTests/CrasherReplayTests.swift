import Foundation
import FuzzEntries
import TestTraits
import Testing

/// Every input a fuzz target ever crashed on (`Fuzz/Crashers/<target>/`),
/// replayed through the entry that target calls: each must now give a
/// result or a typed error. A crash here stops the test process, as it
/// stopped the fuzzer.
@Suite("Fuzz crasher replay", .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct CrasherReplayTests {
    /// Target folder name → the entry its executable calls.
    static let entries: [(target: String, run: @Sendable (Data) -> Void)] = [
        ("decode", DecodeFuzzEntry.run),
        ("transcode", TranscodeFuzzEntry.run),
        ("processing", ProcessingFuzzEntry.run),
        ("rewrite", RewriteFuzzEntry.run),
        ("request-head", RequestHeadFuzzEntry.run),
        ("html", HTMLFuzzEntry.run),
        ("variant", VariantFuzzEntry.run),
    ]

    static let crashers = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // FuzzRegressionTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Crashers", isDirectory: true)

    @Test("crashers replay without a crash", arguments: entries.map(\.target))
    func replay(target: String) throws {
        let folder = Self.crashers.appendingPathComponent(target).path
        var isFolder: ObjCBool = false
        try #require(FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue)
        let entry = try #require(Self.entries.first { $0.target == target }).run
        for file in FuzzDriver.files(at: folder) {
            let data = try #require(FileManager.default.contents(atPath: file), "cannot read \(file)")
            entry(data)
        }
    }

    @Test("a crasher folder exists for every fuzz target")
    func everyTargetHasAFolder() throws {
        let targets = try FileManager.default.contentsOfDirectory(
            atPath: Self.crashers.deletingLastPathComponent().path
        ).filter { $0.hasPrefix("fuzz-") }.map { String($0.dropFirst("fuzz-".count)) }
        #expect(Set(targets) == Set(Self.entries.map(\.target)))
    }
}
