import Foundation
import PortabilityCheck

/// `portability-check [--package-path DIR] [--dump-file FILE] [--swift PATH]`:
/// checks that what an Apple `swift build --build-tests` compiles would build
/// there (see ``PortabilityCheck``). Exit 0 when it would, 1 on a violation or
/// a failure, 2 on a usage error. Run by `make portability` (and so `make test`).
@main
struct PortabilityCheckCommand {
    static let usage = """
        usage: portability-check [--package-path DIR] [--dump-file FILE] [--swift PATH]
          --package-path DIR  the package to check (default: the current folder)
          --dump-file FILE    read this dump-package JSON instead of running
                              WEBP_BRIDGE_MANIFEST_PLATFORM=apple swift package dump-package
          --swift PATH        the swift driver to run (default: $SWIFT, else swift)
        """

    /// Ends the process only once ``run()`` has returned, so nothing it read is
    /// still referenced from a live frame at `exit`: LeakSanitizer (`make
    /// test-asan`) would report such values as leaks, end the process with 1
    /// and drop the buffered report from stdout.
    static func main() {
        exit(run())
    }

    static func run() -> Int32 {
        var packagePath = FileManager.default.currentDirectoryPath
        var dumpFile: String?
        var swift = ProcessInfo.processInfo.environment["SWIFT"] ?? "swift"
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            switch argument {
            case "--help", "-h":
                print(usage)
                return 0
            case "--package-path", "--dump-file", "--swift":
                guard let value = arguments.popFirst() else { return fail(usage: "\(argument) needs a value") }
                if argument == "--package-path" { packagePath = value }
                if argument == "--dump-file" { dumpFile = value }
                if argument == "--swift" { swift = value }
            default:
                return fail(usage: "unknown argument '\(argument)'")
            }
        }
        let root = URL(fileURLWithPath: packagePath, isDirectory: true)
        do {
            let dump: Data
            if let dumpFile {
                guard let data = FileManager.default.contents(atPath: dumpFile) else {
                    return fail("cannot read \(dumpFile)")
                }
                dump = data
            } else {
                dump = try ManifestDump.appleView(of: root, swift: swift)
            }
            let report = try PortabilityCheck(packageRoot: root).run(dump: dump)
            print(report.text)
            return report.passed ? 0 : 1
        } catch {
            return fail("\(error)")
        }
    }

    static func fail(usage message: String) -> Int32 {
        FileHandle.standardError.write(Data("portability-check: \(message)\n\(usage)\n".utf8))
        return 2
    }

    static func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("portability-check: \(message)\n".utf8))
        return 1
    }
}
