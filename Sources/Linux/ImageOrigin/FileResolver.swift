public import Foundation
import WebPBridge

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Maps request paths onto files under a root folder, refusing anything that
/// escapes it: `..` segments (also percent-encoded), NUL bytes, and symbolic
/// links that point outside the root.
///
/// Resolving symbolic links (`realpath`) costs a system call per path
/// component, so each path's resolution is remembered and reused while a
/// `stat` of the requested path — one call, made for every request anyway —
/// still finds the very same file (device and inode). A link retargeted, a
/// file replaced or removed: the identity changes and the path is resolved
/// afresh. Thread-safe: the memory has its own lock.
public struct FileResolver: Sendable {
    /// The root folder, with symbolic links resolved.
    public let root: String
    let resolutions: ResolutionMemory

    /// 1 MiB, the default bound on remembered resolutions.
    public static let defaultMemoryBytes = 1 << 20

    /// - Parameters:
    ///   - root: The folder whose files are served.
    ///   - memoryBytes: The most bytes of remembered resolutions, paths
    ///     included; 1 MiB by default.
    /// - Throws: ``FileResolverError`` when `root` is not a readable folder.
    public init(root: String, memoryBytes: Int = FileResolver.defaultMemoryBytes) throws(FileResolverError) {
        resolutions = ResolutionMemory(capacityBytes: memoryBytes)
        guard let resolved = Self.realPath(root) else {
            throw FileResolverError("root folder '\(root)' does not exist")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw FileResolverError("root '\(root)' is not a folder")
        }
        self.root = resolved
    }

    /// Paths whose resolution is remembered now.
    var rememberedCount: Int { resolutions.count }

    /// A file found under the root.
    public struct File: Sendable, Equatable {
        public var path: String
        public var size: Int
        public var modified: Date
        /// The inode, so a replaced file gets a new identity even at the same size and time.
        public var inode: UInt64
        /// The device, which with the inode names the file.
        var device: UInt64 = 0
        /// The modification time in nanoseconds since 1970, exactly as `stat` gives it.
        var modifiedNanoseconds: Int64 = 0
        /// The path under the root the request named, symbolic links not
        /// resolved: what ``FileResolver/isUnchanged(_:)`` looks at again.
        var requestedPath = ""
    }

    /// Whether the request path that led to `file` still leads to the very
    /// same version of it — device, inode, size and modification time, by one
    /// `stat` that follows links as ``resolve(_:)`` did — so an answer made
    /// from it still holds. A link retargeted (inside the root or out of it),
    /// a file replaced, changed or removed: `false`.
    static func isUnchanged(_ file: File) -> Bool {
        var info = stat()
        guard !file.requestedPath.isEmpty, stat(file.requestedPath, &info) == 0 else { return false }
        #if canImport(Darwin)
            let modified = info.st_mtimespec
        #else
            let modified = info.st_mtim
        #endif
        return UInt64(info.st_ino) == file.inode && UInt64(info.st_dev) == file.device
            && Int(info.st_size) == file.size
            && Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec) == file.modifiedNanoseconds
            && (info.st_mode & S_IFMT) == S_IFREG
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
        guard let decoded = Self.percentDecoded(encodedPath), !decoded.utf8.contains(0) else {
            return .failure(.forbidden)
        }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: true)
        if segments.contains(where: { $0 == ".." || $0 == "." }) || decoded.utf8.contains(UInt8(ascii: "\\")) {
            return .failure(.forbidden)
        }
        guard !segments.isEmpty else { return .failure(.notFound) }
        let candidate = root + "/" + segments.joined(separator: "/")
        // Follows links: describes the file that `realpath` would lead to.
        var info = stat()
        guard stat(candidate, &info) == 0 else { return .failure(.notFound) }
        let identity = Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        let resolved: String
        if let remembered = resolutions.path(for: candidate, identity: identity) {
            resolved = remembered
        } else {
            guard let fresh = Self.realPath(candidate) else { return .failure(.notFound) }
            guard fresh.hasPrefix(root + "/") else { return .failure(.forbidden) }
            resolved = fresh
            resolutions.remember(fresh, for: candidate, identity: identity)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .failure(.notFound) }
        #if canImport(Darwin)
            let modified = info.st_mtimespec
        #else
            let modified = info.st_mtim
        #endif
        let nanoseconds = Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec)
        return .success(
            File(
                path: resolved, size: Int(info.st_size),
                modified: Date(
                    timeIntervalSince1970: TimeInterval(modified.tv_sec) + TimeInterval(modified.tv_nsec) / 1e9),
                inode: UInt64(info.st_ino), device: UInt64(info.st_dev), modifiedNanoseconds: nanoseconds,
                requestedPath: candidate))
    }

    /// `text` with percent-escapes decoded; `nil` when an escape is malformed
    /// or decodes to invalid UTF-8. Text without `%` is returned as is,
    /// without Foundation's decoder, which is slow even then.
    static func percentDecoded(_ text: String) -> String? {
        text.utf8.contains(UInt8(ascii: "%")) ? text.removingPercentEncoding : text
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Which file a path led to: stable while the file is not replaced.
    struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    /// Paths under the root and the file each resolved to, bounded in
    /// bytes, both paths included (an `LRUStore`: re-resolving is merely
    /// slower, and the bound keeps random paths from growing it; a path
    /// past the store's 4 KiB key bound is never remembered).
    final class ResolutionMemory: Sendable {
        private struct Entry {
            var resolved: String
            var identity: Identity
        }

        private let entries: Lock<LRUStore<Entry>>

        init(capacityBytes: Int) {
            entries = Lock(LRUStore(capacity: max(0, capacityBytes)))
        }

        var count: Int { entries.withLock { $0.count } }

        var totalBytes: Int { entries.withLock { $0.totalCost } }

        func path(for candidate: String, identity: Identity) -> String? {
            entries.withLock { entries in
                guard let entry = entries.value(for: candidate), entry.identity == identity else { return nil }
                return entry.resolved
            }
        }

        func remember(_ resolved: String, for candidate: String, identity: Identity) {
            // The resolved path is a heap string of its own: 32 bytes for its header.
            let cost = MemoryLayout<Entry>.stride + resolved.utf8.count + 32
            entries.withLock {
                _ = $0.insert(Entry(resolved: resolved, identity: identity), for: candidate, cost: cost)
            }
        }
    }
}

/// An unusable root folder.
public struct FileResolverError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
