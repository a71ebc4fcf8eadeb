import Foundation
import PortabilityCheck
import TestTraits
import Testing

/// The source rules, one file per row: which lines of it an Apple build
/// would fail on (floor iOS 16 / macOS 13 unless the row says otherwise).
@Suite(.timeLimit(.suiteBound))
struct SourceScannerTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var label: String
        var source: String
        var fileName = "File.swift"
        /// `nil`: the project's floor; `[]`: none declared (SwiftPM's defaults).
        var platforms: [String: String]?
        /// Line → rule expected there; every other line must be clean.
        var expected: [Int: PortabilityViolation.Rule] = [:]
        var testDescription: String { label }
    }

    static let rows: [Row] = [
        Row(label: "plain import Glibc", source: "import Glibc\n", expected: [1: .unguardedImport]),
        Row(label: "@preconcurrency import", source: "@preconcurrency import Glibc\n", expected: [1: .unguardedImport]),
        Row(
            label: "@_implementationOnly import FoundationNetworking",
            source: "@_implementationOnly import FoundationNetworking\n", expected: [1: .unguardedImport]),
        Row(label: "public import Musl", source: "public import Musl\n", expected: [1: .unguardedImport]),
        Row(
            label: "import of a declaration", source: "internal import func Glibc.free\n",
            expected: [1: .unguardedImport]),
        Row(label: "import Synchronization", source: "import Synchronization\n", expected: [1: .unguardedImport]),
        Row(
            label: "import Synchronization on an iOS 18 floor", source: "import Synchronization\n",
            platforms: ["ios": "18.0", "macos": "15.0"]),
        Row(label: "under canImport of itself", source: "#if canImport(Glibc)\nimport Glibc\n#endif\n"),
        Row(label: "under os(Linux)", source: "#if os(Linux)\n    import Glibc\n#endif\n"),
        Row(
            label: "elseif after canImport(Darwin)",
            source: "#if canImport(Darwin)\nimport Darwin\n#elseif canImport(Glibc)\nimport Glibc\n#endif\n"),
        Row(
            label: "else after canImport(Darwin)",
            source: "#if canImport(Darwin)\nimport Darwin\n#else\nimport Glibc\n#endif\n"),
        Row(
            label: "else after _runtime(_ObjC)",
            source: "#if _runtime(_ObjC)\nimport Foundation\n#else\nimport FoundationNetworking\n#endif\n"),
        Row(
            label: "canImport(Synchronization) guards its import",
            source: "#if canImport(Synchronization)\nimport Synchronization\n#endif\n"),
        Row(
            label: "under !os(Linux)", source: "#if !os(Linux)\nimport Glibc\n#endif\n", expected: [2: .unguardedImport]
        ),
        Row(label: "under a custom flag", source: "#if DEBUG\nimport Glibc\n#endif\n", expected: [2: .unguardedImport]),
        Row(label: "under os(iOS)", source: "#if os(iOS)\nimport Glibc\n#endif\n", expected: [2: .unguardedImport]),
        Row(
            label: "else of macOS and iOS branches",
            source: "#if os(macOS)\nimport AppKit\n#elseif os(iOS)\nimport UIKit\n#else\nimport Glibc\n#endif\n"),
        Row(
            label: "nested: guarded inner, unguarded outer",
            source: "#if DEBUG\n#if os(Linux)\nimport Glibc\n#endif\nimport FoundationNetworking\n#endif\n",
            expected: [5: .unguardedImport]),
        Row(
            label: "nested: dead outer branch, live else",
            source: """
                #if os(Linux)
                #if DEBUG
                #else
                import Glibc
                #endif
                #else
                import Synchronization
                #endif

                """,
            expected: [7: .unguardedImport]),
        Row(
            label: "comments and strings are not code",
            source: """
                // import Glibc
                /* import Glibc /* nested */ let m = Mutex(0) */
                let s = "import Glibc Mutex"
                let t = \"""
                    import Glibc
                    \"""
                let u = #"a "quoted" \\(Mutex) import Glibc"#

                """),
        Row(
            label: "code in an interpolation is code", source: "let s = \"value \\(Mutex(0)) end\"\n",
            expected: [1: .newerAPI]),
        Row(
            label: "an Apple-only file is still scanned",
            source: "// Apple platforms only: compiled where ImageIO exists.\nimport Glibc\n",
            fileName: "ImageIOCodec.apple.swift", expected: [2: .unguardedImport]),
        Row(label: "Mutex above the floor", source: "let m = Mutex<Int>(0)\n", expected: [1: .newerAPI]),
        Row(label: "Atomic above the floor", source: "let a = Atomic<Int>(0)\n", expected: [1: .newerAPI]),
        Row(
            label: "Mutex in a Linux-only branch", source: "#if os(Linux)\nlet m = Mutex(0)\n#endif\n"),
        Row(
            label: "@available on the type",
            source: "@available(iOS 18, macOS 15, *)\nfinal class Box {\n    let m = Mutex(0)\n}\nlet n = Mutex(1)\n",
            expected: [5: .newerAPI]),
        Row(
            label: "@available long form",
            source: """
                @available(iOS, introduced: 18.0)
                @available(macOS, introduced: 15.0)
                struct Box {
                    var m: Mutex<Int>
                }

                """),
        Row(
            label: "@available for iOS only still fails on macOS",
            source: "@available(iOS 18, *)\nstruct Box {\n    let m = Mutex(0)\n}\n", expected: [3: .newerAPI]),
        Row(
            label: "if #available covers its body, not its else",
            source: """
                func f() {
                    if #available(iOS 18, macOS 15, *) {
                        _ = Mutex(0)
                    } else {
                        _ = Mutex(1)
                    }
                }

                """,
            expected: [5: .newerAPI]),
        Row(
            label: "if #available on one line",
            source: "if #available(iOS 18.0, macOS 15.0, *) { _ = Mutex(0) }\n_ = Mutex(1)\n",
            expected: [2: .newerAPI]),
        Row(
            label: "guard #available covers the rest of its block",
            source: """
                func f() {
                    guard #available(iOS 18, macOS 15, *) else { return }
                    _ = Atomic<Int>(0)
                }
                let x = Atomic<Int>(1)

                """,
            expected: [5: .newerAPI]),
        Row(label: "Duration at the iOS 16 floor", source: "let d: Duration = .seconds(1)\n"),
        Row(
            label: "Duration with no floor declared", source: "let d: Duration = .seconds(1)\n", platforms: [:],
            expected: [1: .newerAPI]),
        Row(
            label: "regex literal below iOS 16", source: "let r = #/a+b/#\n",
            platforms: ["ios": "15.0", "macos": "12.0"], expected: [1: .newerAPI]),
        Row(label: "regex literal at iOS 16", source: "let r = #/a\"+b/#\nlet s = \"x\"\n"),
        Row(label: "@Observable", source: "@Observable final class Model {}\n", expected: [1: .newerAPI]),
        Row(label: "InlineArray", source: "let a: InlineArray<3, Int> = [1, 2, 3]\n", expected: [1: .newerAPI]),
        Row(
            label: "task executors", source: "let t = Task(executorPreference: e) {}\nclass E: TaskExecutor {}\n",
            expected: [1: .newerAPI, 2: .newerAPI]),
        Row(
            label: "task executors under if #available",
            source: "if #available(iOS 18, macOS 15, *) { await withTaskExecutorPreference(e) {} }\n"),
        Row(label: "TestScoping on Swift 6.0", source: "struct T: TestScoping {}\n", expected: [1: .newerSwift]),
        Row(
            label: "TestScoping under compiler(>=6.1)",
            source: "#if compiler(>=6.1)\nstruct T: TestScoping {}\n#else\nstruct T {}\n#endif\n"),
        Row(
            label: "TestScoping under swift(>=6.1) && os(macOS)",
            source: "#if swift(>=6.1) && os(macOS)\nstruct T: TestScoping {}\n#endif\n"),
        Row(
            label: "the error #expect(throws:) returns, on Swift 6.0",
            source: """
                let error = #expect(throws: E.self) { try f() }
                let other = try #require(throws: E.self) { try f() }
                #expect(throws: E.self) { try f() }

                """,
            expected: [1: .newerSwift, 2: .newerSwift]),
        Row(
            label: "compiler(>=6.1) does not cover a 6.2 feature",
            source: "#if compiler(>=6.1)\n@concurrent func f() async {}\n#endif\n", expected: [2: .newerSwift]),
        Row(
            label: "Swift 6.2 features",
            source: """
                nonisolated(nonsending) func f() async {}
                weak let w: AnyObject?
                @Test func `a raw identifier`() {}
                nonisolated struct S {}
                func `default`() {}

                """,
            expected: [1: .newerSwift, 2: .newerSwift, 3: .newerSwift, 4: .newerSwift]),
        Row(label: "a longer name is another API", source: "let m = PthreadMutex()\nlet a = AtomicCounter()\n"),
        Row(
            label: "#if without #endif", source: "#if os(Linux)\nimport Glibc\n",
            expected: [1: .unreadableSource]),
        Row(label: "#endif without #if", source: "let a = 1\n#endif\n", expected: [2: .unreadableSource]),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) throws {
        var package = FakePackage.single(row.source, fileName: row.fileName)
        if let platforms = row.platforms { package.platforms = platforms.sorted { $0.key < $1.key }.map { ($0, $1) } }
        let report = try package.check()
        let found = Dictionary(
            report.violations.map { ($0.line ?? 0, $0.rule) }, uniquingKeysWith: { first, _ in first })
        #expect(found == row.expected, "\(report.text)")
        #expect(report.violations.allSatisfy { $0.file == "Sources/A/\(row.fileName)" })
    }

    @Test func aReportNamesTheLineTheAPIAndBothPlatforms() throws {
        let report = try FakePackage.single("let x = 1\nlet m = Mutex(0)\n").check()
        #expect(
            report.violations.map(\.description) == [
                "Sources/A/File.swift:2: Mutex (Synchronization) needs iOS 18.0 / macOS 15.0, above the floor "
                    + "iOS 16.0 / macOS 13.0, and no #available or @available guard covers this use"
            ])
    }

    @Test func aGuardForOnePlatformLeavesTheOther() throws {
        let report = try FakePackage.single("@available(iOS 18, *)\nstruct Box {\n    let m = Mutex(0)\n}\n").check()
        let reason = try #require(report.violations.first).reason
        #expect(reason.contains("macOS 15.0") && !reason.contains("iOS 18.0"), "\(reason)")
    }
}
