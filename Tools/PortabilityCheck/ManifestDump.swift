package import Foundation

/// Runs `swift package dump-package` with the manifest's Apple view switched on.
package enum ManifestDump {
    /// The variable the manifest reads through `Context.environment`; `apple`
    /// makes it evaluate as an Apple build sees it.
    package static let platformVariable = "WEBP_BRIDGE_MANIFEST_PLATFORM"

    /// The most JSON read from dump-package (the project's is about 60 KB).
    package static let maximumBytes = 16 << 20

    /// The manifest of `packagePath` as JSON, evaluated with
    /// `WEBP_BRIDGE_MANIFEST_PLATFORM=apple`; dump-package's own messages go
    /// to this process's standard error.
    /// - Parameter swift: the `swift` driver, a path or a name found on `PATH`.
    /// - Throws: ``PortabilityCheckError`` when it cannot start, fails, or
    ///   writes more than ``maximumBytes``.
    package static func appleView(of packagePath: URL, swift: String = "swift") throws(PortabilityCheckError) -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [swift, "package", "--package-path", packagePath.path, "dump-package"]
        var environment = ProcessInfo.processInfo.environment
        environment[platformVariable] = "apple"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw .dumpPackage("cannot run '\(swift) package dump-package': \(error)")
        }
        var data = Data()
        let reader = output.fileHandleForReading
        while let chunk = try? reader.read(upToCount: 1 << 16), !chunk.isEmpty {
            data.append(chunk)
            if data.count > maximumBytes {
                process.terminate()
                process.waitUntilExit()
                throw .dumpPackage("dump-package wrote more than \(maximumBytes) bytes; is this a package?")
            }
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw .dumpPackage(
                "'\(swift) package dump-package' failed (status \(process.terminationStatus)); its messages are above")
        }
        return data
    }
}
