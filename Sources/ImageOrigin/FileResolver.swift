public import Foundation

/// Maps request paths onto files under a root folder, refusing anything that
/// escapes it: `..` segments (also percent-encoded), NUL bytes, and symbolic
/// links that point outside the root.
public struct FileResolver: Sendable {
    /// The root folder, with symbolic links resolved.
    public let root: String

    /// - Throws: ``FileResolverError`` when `root` is not a readable folder.
    public init(root: String) throws(FileResolverError) {
        guard let resolved = Self.realPath(root) else {
            throw FileResolverError("root folder '\(root)' does not exist")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw FileResolverError("root '\(root)' is not a folder")
        }
        self.root = resolved
    }

    /// A file found under the root.
    public struct File: Sendable, Equatable {
        public var path: String
        public var size: Int
        public var modified: Date
        /// The inode, so a replaced file gets a new identity even at the same size and time.
        public var inode: UInt64
    }

    /// Why a path was not served.
    public enum Refusal: Error, Sendable, Equatable {
        /// The path tries to leave the root: 403.
        case forbidden
        /// No such file: 404.
        case notFound
    }

    /// The file for a percent-encoded request path such as `/photos/a%20b.jpg`.
    public func resolve(_ encodedPath: String) -> Result<File, Refusal> {
        guard let decoded = encodedPath.removingPercentEncoding, !decoded.contains("\0") else { return .failure(.forbidden) }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: true)
        if segments.contains(where: { $0 == ".." || $0 == "." }) || decoded.contains("\\") { return .failure(.forbidden) }
        guard !segments.isEmpty else { return .failure(.notFound) }
        let candidate = root + "/" + segments.joined(separator: "/")
        guard let resolved = Self.realPath(candidate) else { return .failure(.notFound) }
        guard resolved.hasPrefix(root + "/") else { return .failure(.forbidden) }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved),
            attributes[.type] as? FileAttributeType == .typeRegular
        else { return .failure(.notFound) }
        return .success(
            File(
                path: resolved,
                size: (attributes[.size] as? NSNumber)?.intValue ?? 0,
                modified: attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0),
                inode: (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0))
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// An unusable root folder.
public struct FileResolverError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
