import Foundation
import PortabilityCheck
import TestTraits
import Testing

/// The errors an Apple build of the package hit (issue 28): each is found in
/// the code as it was, and the project's file as it is now passes. The third,
/// a member used without importing its module, is a compile error the scanner
/// cannot see: `make portability` finds it by compiling the Apple-only files
/// against the SDK stand-ins (Tests/StandIns/mutations.sh shows it).
@Suite(.timeLimit(.suiteBound))
struct AppleBuildErrorTests {
    /// The rules found in `source`, by line.
    func findings(_ source: String, fileName: String = "File.swift") throws -> [Int: PortabilityViolation.Rule] {
        let report = try FakePackage.single(source, fileName: fileName).check()
        return Dictionary(report.violations.map { ($0.line ?? 0, $0.rule) }, uniquingKeysWith: { first, _ in first })
    }

    /// The package's root: this file is Tests/PortabilityCheckTests/AppleBuildErrorTests.swift.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The project's own file, checked as one file of a product.
    func projectFile(_ path: String) throws -> PortabilityReport {
        let url = Self.packageRoot.appendingPathComponent(path)
        let source = try String(contentsOf: url, encoding: .utf8)
        return try FakePackage.single(source, fileName: url.lastPathComponent).check()
    }

    @Test func withTaskExecutorPreferenceAndTestScopingAsTheyWere() throws {
        let source = """
            public struct OffTheGlobalExecutor: SuiteTrait, TestTrait, TestScoping {
                static let threads = WorkerThreads(limit: 4, name: "test.cpu")
                public func provideScope(
                    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
                ) async throws {
                    try await withTaskExecutorPreference(Self.threads) { try await function() }
                }
            }

            """
        #expect(try findings(source) == [1: .newerSwift, 6: .newerAPI])
    }

    @Test func offTheGlobalExecutorPasses() throws {
        let report = try projectFile("Tests/Helpers/TestTraits/OffTheGlobalExecutor.swift")
        #expect(report.passed, "\(report.text)")
    }

    @Test func aTaskExecutorConformanceWithoutAvailability() throws {
        let source = """
            extension WorkerThreads: TaskExecutor {
                public func enqueue(_ job: consuming ExecutorJob) {
                    let job = UnownedJob(job)
                    submit { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
                }
            }

            """
        #expect(try findings(source) == [1: .newerAPI, 4: .newerAPI])
    }

    @Test func workerThreadsPasses() throws {
        let report = try projectFile("Sources/Portable/WebPBridge/Concurrency/WorkerThreads.swift")
        #expect(report.passed, "\(report.text)")
    }

    @Test func taskExecutorPreferenceUnguardedAsItWas() throws {
        let source = """
            func f(threads: WorkerThreads) {
                Task(executorPreference: threads) {
                    await Task.yield()
                }
            }

            """
        #expect(try findings(source) == [2: .newerAPI])
    }

    @Test func workerThreadsTestsPass() throws {
        let report = try projectFile("Tests/WebPBridgeTests/Concurrency/WorkerThreadsTests.swift")
        #expect(report.passed, "\(report.text)")
    }

    @Test func aReportNamesTheSwiftVersion() throws {
        let report = try FakePackage.single("struct T: TestScoping {}\n").check()
        #expect(
            report.violations.map(\.description) == [
                "Sources/A/File.swift:1: TestScoping (Swift Testing 6.1) needs Swift 6.1, newer than the oldest "
                    + "supported Swift 6.0 (swift-tools-version), and no #if compiler(>=…) covers this use"
            ])
    }

    @Test func aTestTargetOutsideTheProductsIsScanned() throws {
        var package = FakePackage()
        package.products = [("A", ["A"])]
        package.targets = [.init(name: "A"), .init(name: "Helpers"), .init(name: "ATests", type: "test")]
        package.files = [
            "Sources/A/A.swift": "import Foundation\n",
            "Sources/Helpers/H.swift": "func f() async { await withTaskExecutorPreference(nil) {} }\n",
            "Tests/ATests/T.swift": "let t = Task(executorPreference: nil) {}\n",
        ]
        let report = try package.check()
        #expect(report.scannedTargets == ["A", "ATests", "Helpers"])
        #expect(report.violations.map(\.file) == ["Sources/Helpers/H.swift", "Tests/ATests/T.swift"])
    }
}
