import Foundation
import TestSupport
import TestTraits
import Testing

@testable import PortabilityCheck

/// `#if` conditions as an Apple build evaluates them, and the blanker on
/// hostile input.
@Suite(.timeLimit(.suiteBound))
struct CompilationConditionTests {
    typealias Truth = CompilationCondition.Truth

    static func condition(_ text: String) -> CompilationCondition {
        CompilationCondition(tokens: SwiftToken.tokens(of: Array(text.utf8)))
    }

    /// Condition → truth on iOS, truth on macOS.
    static let rows: [(String, Truth, Truth)] = [
        ("os(Linux)", .no, .no),
        ("os(iOS)", .yes, .no),
        ("os(macOS) || os(iOS)", .yes, .yes),
        ("!os(Linux)", .yes, .yes),
        ("canImport(Glibc)", .no, .no),
        ("canImport(Darwin)", .yes, .yes),
        ("canImport(UIKit)", .yes, .no),
        ("canImport(Synchronization)", .unknown, .unknown),
        ("DEBUG", .unknown, .unknown),
        ("os(Linux) && DEBUG", .no, .no),
        ("os(Linux) || DEBUG", .unknown, .unknown),
        ("(os(Linux) || os(Android)) && !canImport(Darwin)", .no, .no),
        ("compiler(>=6.0) && canImport(FoundationNetworking)", .no, .no),
        ("canImport(Foundation, _version: 1.0)", .yes, .yes),
        ("swift(>=5.9)", .unknown, .unknown),
        ("os(Linux) ||", .unknown, .unknown),
        ("((os(Linux)", .unknown, .unknown),
        ("true && !false", .yes, .yes),
    ]

    @Test(arguments: rows.indices)
    func truth(_ index: Int) {
        let (text, iOS, macOS) = Self.rows[index]
        let parsed = Self.condition(text)
        #expect(parsed.truth(on: .iOS) == iOS, "\(text) on iOS")
        #expect(parsed.truth(on: .macOS) == macOS, "\(text) on macOS")
    }

    @Test func aModuleTakenAsMissingMakesItsCanImportFalse() {
        let parsed = Self.condition("canImport(Synchronization)")
        #expect(parsed.truth(on: .iOS, missingModule: "Synchronization") == .no)
        #expect(parsed.truth(on: .iOS, missingModule: "Glibc") == .unknown)
    }

    @Test func versionsCompareByComponent() {
        #expect(OSVersion(parsing: "10.14.4")! < OSVersion(10, 15))
        #expect(OSVersion(parsing: "16")! == OSVersion(16, 0))
        #expect(OSVersion(26, 0) > OSVersion(18, 4))
        #expect(OSVersion(parsing: "16.x") == nil)
        #expect(OSVersion(parsing: "") == nil)
        #expect(OSVersion(parsing: "1234567") == nil)
    }

    /// Random bytes and random Swift-ish fragments: the scanner ends, keeps the
    /// line count, and reports only line numbers inside the file.
    @Test func hostileSourceNeverCrashes() {
        var random = SeededGenerator(seed: 12)
        let fragments = [
            "\"", "\"\"\"", "#", "##", "/", "/*", "*/", "//", "\\(", ")", "(", "{", "}", "#if ", "#elseif ", "#else",
            "#endif", "\n", "import Glibc", "Mutex", "#/", "/#", "@available(iOS 18, *)", "#available(", "\\", "é",
            "canImport(", "os(Linux)", "guard ", "`", " ",
        ]
        let scanner = SourceScanner(
            file: "F.swift", floors: [.iOS: OSVersion(16, 0), .macOS: OSVersion(13, 0)],
            apis: APIAvailability.standard, modules: GuardedModule.standard)
        for round in 0..<400 {
            let bytes: [UInt8] =
                round.isMultiple(of: 2)
                ? (0..<random.below(400)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                : Array((0..<random.below(120)).map { _ in random.pick(fragments) }.joined().utf8)
            let lineCount = bytes.filter { $0 == UInt8(ascii: "\n") }.count + 1
            #expect(SwiftCodeBlanker.blank(bytes).count == bytes.count)
            for violation in scanner.scan(bytes) {
                #expect((1...lineCount).contains(violation.line ?? 1), "round \(round): \(violation)")
            }
        }
    }
}
