public import Foundation

/// The shared test corpus (`../shared/corpus` beside the project, or the folder
/// named by `WEBP_BRIDGE_CORPUS`), read in place and never copied.
///
/// A user's clone has no corpus; suites that need it are disabled with
/// ``Corpus/unavailableReason`` so the skip is visible, and the rest of the
/// suite runs on generated fixtures.
public enum Corpus {
    /// The corpus folder, or `nil` when there is none.
    public static let root: URL? = {
        let fileManager = FileManager.default
        if let configured = ProcessInfo.processInfo.environment["WEBP_BRIDGE_CORPUS"], !configured.isEmpty {
            let url = URL(fileURLWithPath: configured, isDirectory: true)
            return fileManager.fileExists(atPath: url.path) ? url : nil
        }
        let candidate = packageRoot.deletingLastPathComponent()
            .appendingPathComponent("shared/corpus", isDirectory: true)
        return fileManager.fileExists(atPath: candidate.appendingPathComponent("README.md").path) ? candidate : nil
    }()

    /// Whether the corpus is present.
    public static var isAvailable: Bool { root != nil }

    /// Why corpus suites are skipped, shown by the test runner.
    public static let unavailableReason =
        "corpus not found: set WEBP_BRIDGE_CORPUS or place shared/corpus beside the project"

    /// The project's root folder: the nearest folder above this file that holds `Package.swift`
    /// (found by walking up, so moving this file cannot silently point the corpus elsewhere).
    public static let packageRoot: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        preconditionFailure("no Package.swift above \(#filePath)")
    }()

    /// The URL of a corpus file, e.g. `url("kodak/kodim01.png")`.
    public static func url(_ relativePath: String) throws -> URL {
        guard let root else { throw CorpusUnavailable(path: relativePath) }
        return root.appendingPathComponent(relativePath)
    }

    /// The bytes of a corpus file.
    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    /// The names of the files in a corpus folder with one of `extensions`, sorted.
    public static func files(in folder: String, extensions: Set<String>) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: url(folder).path)
        return names.filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }.sorted()
    }

    /// The 24 Kodak photos' names (`kodim01.png` … `kodim24.png`), or none without the corpus.
    public static var kodakNames: [String] {
        (try? files(in: "kodak", extensions: ["png"])) ?? []
    }
}

/// Thrown when a test asks for a corpus file and there is no corpus.
public struct CorpusUnavailable: Error, CustomStringConvertible {
    public let path: String
    public var description: String { "corpus file \(path) requested, but no corpus is available" }
}
