import Foundation
import PortabilityCheck
import TestSupport

/// A package built at test time: dump-package's JSON for it, and its source
/// files in a temporary folder.
struct FakePackage {
    enum Dependency {
        case byName(String, platforms: [String]? = nil)
        case target(String, platforms: [String]? = nil)
        case product(String, package: String, platforms: [String]? = nil)
    }

    struct Target {
        var name: String
        var type = "regular"
        var path: String?
        var exclude: [String] = []
        var dependencies: [Dependency] = []
    }

    /// `platformName`/`version` pairs; the project's floor by default.
    var platforms: [(String, String)] = [("ios", "16.0"), ("macos", "13.0")]
    var products: [(name: String, targets: [String])] = []
    var targets: [Target] = []
    /// Path under the package → contents.
    var files: [String: String] = [:]

    /// One product over one target holding one file.
    static func single(_ source: String, fileName: String = "File.swift") -> FakePackage {
        var package = FakePackage()
        package.products = [("A", ["A"])]
        package.targets = [Target(name: "A")]
        package.files = ["Sources/A/\(fileName)": source]
        return package
    }

    /// The JSON `swift package dump-package` would print.
    func dump() throws -> Data {
        func condition(_ platforms: [String]?) -> Any {
            platforms.map { ["platformNames": $0] as Any } ?? NSNull()
        }
        let targetObjects: [[String: Any]] = targets.map { target in
            var object: [String: Any] = [
                "name": target.name, "type": target.type, "exclude": target.exclude,
                "dependencies": target.dependencies.map { dependency -> [String: Any] in
                    switch dependency {
                    case .byName(let name, let platforms): ["byName": [name, condition(platforms)]]
                    case .target(let name, let platforms): ["target": [name, condition(platforms)]]
                    case .product(let name, let package, let platforms):
                        ["product": [name, package, NSNull(), condition(platforms)]]
                    }
                },
            ]
            if let path = target.path { object["path"] = path }
            return object
        }
        let object: [String: Any] = [
            "name": "Fake",
            "platforms": platforms.map { ["platformName": $0.0, "version": $0.1, "options": [String]()] },
            "products": products.map { ["name": $0.name, "targets": $0.targets, "type": ["library": ["automatic"]]] },
            "targets": targetObjects,
        ]
        return try JSONSerialization.data(withJSONObject: object)
    }

    /// Writes the files into `folder` (and the JSON as `dump.json`).
    func write(into folder: TemporaryDirectory) throws {
        for (path, contents) in files {
            let url = folder.file(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        try dump().write(to: folder.file("dump.json"))
    }

    /// Runs the check on this package.
    func check(maximumFileBytes: Int? = nil) throws -> PortabilityReport {
        let folder = try TemporaryDirectory(prefix: "portability")
        try write(into: folder)
        var check = PortabilityCheck(packageRoot: folder.url)
        if let maximumFileBytes { check.maximumFileBytes = maximumFileBytes }
        return try check.run(dump: try dump())
    }
}
