public import Foundation

/// Programs from the system that tests use as independent clients (`curl`,
/// `dwebp`, `cwebp`), found in the usual folders.
public enum ExternalTool {
    /// The tool's path, or `nil` when it is not installed.
    public static func path(_ name: String) -> URL? {
        for folder in ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin", "/bin"] {
            let url = URL(fileURLWithPath: folder).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    /// Whether every tool named is installed.
    public static func available(_ names: String...) -> Bool { names.allSatisfy { path($0) != nil } }
}
