import Foundation
import PortabilityCheck
import TestTraits
import Testing

/// The manifest rules: what each product reaches through its target
/// dependencies in the Apple view, and which sources that makes checked.
@Suite(.timeLimit(.suiteBound))
struct DependencyWalkTests {
    static let clean = "import Foundation\n"

    /// Product A over target A, which depends on `dependencies`; B and Sys exist.
    func package(_ dependencies: [FakePackage.Dependency], bDependencies: [FakePackage.Dependency] = [])
        -> FakePackage
    {
        var package = FakePackage()
        package.products = [("A", ["A"])]
        package.targets = [
            .init(name: "A", dependencies: dependencies),
            .init(name: "B", dependencies: bDependencies),
            .init(name: "Sys", type: "system"),
        ]
        package.files = ["Sources/A/A.swift": Self.clean, "Sources/B/B.swift": Self.clean]
        return package
    }

    @Test func aSystemLibraryTwoHopsAwayIsFoundWithItsChain() throws {
        let report = try package([.byName("B")], bDependencies: [.target("Sys")]).check()
        #expect(report.violations.map(\.rule) == [.systemLibrary])
        #expect(report.violations.first?.description.hasPrefix("Package.swift: product A: A → B → Sys: ") == true)
    }

    @Test func aLinuxOnlyConditionKeepsASystemLibraryOut() throws {
        let report = try package([.byName("Sys", platforms: ["linux"]), .target("B", platforms: ["linux", "android"])])
            .check()
        #expect(report.passed, "\(report.text)")
        // B is still compiled by `swift build`, so still scanned (it is clean).
        #expect(report.scannedTargets == ["A", "B"])
    }

    @Test func aConditionNamingAnApplePlatformCounts() throws {
        let report = try package([.target("Sys", platforms: ["linux", "ios"])]).check()
        #expect(report.violations.map(\.rule) == [.systemLibrary])
    }

    @Test func aTargetMissingFromTheAppleViewIsReported() throws {
        let report = try package([.byName("CCurl")]).check()
        #expect(report.violations.map(\.rule) == [.missingTarget])
        #expect(report.violations.first?.reason.contains("no target 'CCurl'") == true)
    }

    @Test func aProductOfAnotherPackageIsReported() throws {
        let report = try package([.product("NIO", package: "swift-nio")]).check()
        #expect(report.violations.map(\.rule) == [.missingTarget])
        #expect(report.violations.first?.reason.contains("'swift-nio'") == true)
    }

    @Test func aProductOfAnotherPackageForLinuxOnlyIsNot() throws {
        let report = try package([.product("NIO", package: "swift-nio", platforms: ["linux"])]).check()
        #expect(report.passed, "\(report.text)")
    }

    /// `swift build --build-tests` compiles every target of the Apple view, not only what the
    /// products reach, so a target no product reaches is scanned too.
    @Test func everyTargetIsScannedReachedOrNot() throws {
        for dependencies: [FakePackage.Dependency] in [[.byName("B")], []] {
            var package = package(dependencies)
            package.files["Sources/B/B.swift"] = "import Glibc\n"
            let report = try package.check()
            #expect(report.violations.map(\.description).map { $0.prefix(27) } == ["Sources/B/B.swift:1: unguar"])
            #expect(report.scannedTargets == ["A", "B"])
        }
    }

    @Test func aCustomPathAndExcludedFilesAreHonoured() throws {
        var package = FakePackage()
        package.products = [("A", ["A"])]
        package.targets = [.init(name: "A", path: "Code/A", exclude: ["Linux", "Old.swift"])]
        package.files = [
            "Code/A/Kept.swift": "let m = Mutex(0)\n",
            "Code/A/Linux/Glue.swift": "import Glibc\n",
            "Code/A/Old.swift": "import Glibc\n",
        ]
        let report = try package.check()
        #expect(report.violations.map { "\($0.file):\($0.rule)" } == ["Code/A/Kept.swift:newerAPI"])
        #expect(report.scannedFiles == 1)
    }

    @Test func theFloorIsReadFromTheManifestOrSwiftPMsDefault() throws {
        let declared = try package([]).check()
        #expect(declared.floors == [.iOS: OSVersion(16, 0), .macOS: OSVersion(13, 0)])
        var undeclared = package([])
        undeclared.platforms = [("linux", "0.0")]
        #expect(try undeclared.check().floors == [.iOS: OSVersion(12, 0), .macOS: OSVersion(10, 13)])
    }

    @Test func aDependencyCycleEnds() throws {
        let report = try package([.byName("B")], bDependencies: [.byName("A"), .byName("B")]).check()
        #expect(report.passed)
        #expect(report.scannedTargets == ["A", "B"])
    }

    @Test func aMissingSourceFolderIsReportedNotPassed() throws {
        var package = package([.byName("B")])
        package.files["Sources/B/B.swift"] = nil
        let report = try package.check()
        #expect(report.violations.map(\.rule) == [.unreadableSource])
    }

    @Test func aFileOverTheLimitIsReportedNotRead() throws {
        var package = package([])
        package.files["Sources/A/Big.swift"] = String(repeating: "// filler line\n", count: 2_000)
        let report = try package.check(maximumFileBytes: 16_384)
        #expect(report.violations.map { "\($0.file):\($0.rule)" } == ["Sources/A/Big.swift:unreadableSource"])
    }

    @Test func jsonThatIsNotAPackageIsATypedError() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory())
        #expect(throws: PortabilityCheckError.self) {
            try PortabilityCheck(packageRoot: folder).run(dump: Data("{\"targets\": 3}".utf8))
        }
        let error = try #require(throws: PortabilityCheckError.self) {
            try PortabilityCheck(packageRoot: folder).run(dump: Data([0xFF, 0x00]))
        }
        #expect(error.isManifestError)
    }
}
