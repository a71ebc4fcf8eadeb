import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The on-disk form of one ``DiskCache`` entry: a single file, so that one
/// `rename` publishes all of it or none of it.
///
/// Layout (integers little-endian):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | magic `WBDC` |
/// | 4 | 2 | format version (1) |
/// | 6 | 2 | reserved, 0 |
/// | 8 | 4 | metadata length M |
/// | 12 | 8 | body length B |
/// | 20 | 8 | FNV-1a 64 of bytes 0..<20, then the metadata, then the body |
/// | 28 | M | metadata: JSON of ``EntryMetadata`` (the key included) |
/// | 28+M | B | body, as received |
///
/// A file whose size is not exactly 28 + M + B, or whose checksum does not
/// match, is torn or damaged, and is never served.
enum EntryFile {
    static let magic: [UInt8] = Array("WBDC".utf8)
    static let version: UInt16 = 1
    static let headerSize = 28
    /// Metadata is a few hundred bytes; a larger length means a damaged header.
    static let maxMetadataLength = 1 << 20

    /// Why a file could not be read as an entry.
    enum ReadFailure: Error {
        /// The file is not there (never stored, evicted, or removed).
        case missing
        /// The file is there but is not a whole, intact entry.
        case damaged(String)
    }

    /// The parsed fixed-size header.
    struct Header: Equatable {
        var metadataLength: Int
        var bodyLength: Int
        var checksum: UInt64
        var fileSize: Int { EntryFile.headerSize + metadataLength + bodyLength }
    }

    /// The metadata of an entry, as stored.
    struct EntryMetadata: Codable {
        var key: String
        var url: String
        var statusCode: Int
        var contentType: String?
        var etag: String?
        var lastModified: String?
        var cacheControl: String?
        var expires: String?
        /// Seconds since 1970.
        var storedAt: Double
        /// Seconds since 1970.
        var expiresAt: Double
        var requiresRevalidation: Bool
    }

    /// An entry ready to be written.
    struct Encoded {
        var prefix: [UInt8]  // header + metadata
        var body: Data
        var fileSize: Int { prefix.count + body.count }
    }

    // MARK: Encoding

    static func encode(_ entry: CachedEntry) throws -> Encoded {
        let metadata = EntryMetadata(
            key: entry.key, url: entry.url.absoluteString, statusCode: entry.statusCode,
            contentType: entry.contentType, etag: entry.etag, lastModified: entry.lastModified,
            cacheControl: entry.cacheControl, expires: entry.expires,
            storedAt: entry.storedAt.timeIntervalSince1970, expiresAt: entry.expiresAt.timeIntervalSince1970,
            requiresRevalidation: entry.requiresRevalidation)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = [UInt8](try encoder.encode(metadata))
        var header = [UInt8]()
        header.reserveCapacity(headerSize + json.count)
        header += magic
        append(UInt64(version), bytes: 2, to: &header)
        append(0, bytes: 2, to: &header)
        append(UInt64(json.count), bytes: 4, to: &header)
        append(UInt64(entry.data.count), bytes: 8, to: &header)
        var hash = FNV1a64()
        hash.update(header)
        hash.update(json)
        entry.data.withUnsafeBytes { hash.update($0) }
        append(hash.value, bytes: 8, to: &header)
        return Encoded(prefix: header + json, body: entry.data)
    }

    static func parseHeader(_ bytes: UnsafeRawBufferPointer) -> Header? {
        guard bytes.count >= headerSize, Array(bytes[0..<4]) == magic,
            littleEndian(bytes, at: 4, count: 2) == UInt64(version)
        else { return nil }
        let metadataLength = littleEndian(bytes, at: 8, count: 4)
        let bodyLength = littleEndian(bytes, at: 12, count: 8)
        guard metadataLength <= UInt64(maxMetadataLength), bodyLength <= UInt64(Int.max / 2) else { return nil }
        return Header(
            metadataLength: Int(metadataLength), bodyLength: Int(bodyLength),
            checksum: littleEndian(bytes, at: 20, count: 8))
    }

    private static func append(_ value: UInt64, bytes: Int, to buffer: inout [UInt8]) {
        for index in 0..<bytes { buffer.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    private static func littleEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int, count: Int) -> UInt64 {
        (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }

    // MARK: File I/O

    /// Writes `encoded` to a new file at `path` (which must not exist), with
    /// the modification date `modified` (the entry's last use, for LRU order
    /// after a restart), flushed to stable storage first when `sync`.
    static func writeFile(_ encoded: Encoded, to path: String, modified: Date, sync: Bool) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw posixError("cannot create \(path)") }
        var closed = false
        defer { if !closed { close(fd) } }
        try encoded.prefix.withUnsafeBytes { try writeAll(fd, $0, path: path) }
        try encoded.body.withUnsafeBytes { try writeAll(fd, $0, path: path) }
        setModificationDate(fd: fd, modified)
        if sync, fsync(fd) != 0 { throw posixError("cannot sync \(path)") }
        closed = true
        guard close(fd) == 0 else { throw posixError("cannot close \(path)") }
    }

    /// The header of the file at `path` when the file is as long as its header
    /// says, else `nil`. Reads only the header (used when scanning at open).
    static func validHeader(at path: String) -> Header? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: headerSize)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, headerSize, 0) }
        guard count == headerSize, let header = bytes.withUnsafeBytes({ parseHeader($0) }),
            header.fileSize == Int(info.st_size)
        else { return nil }
        return header
    }

    /// Reads and verifies the whole entry at `path`.
    static func readEntry(at path: String) throws(ReadFailure) -> CachedEntry {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { throw .missing }
            throw .damaged("cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .damaged("cannot stat") }
        let size = Int(info.st_size)
        // Header and metadata first, then the body straight into its own
        // buffer: one copy of a large body, not two.
        var header = [UInt8](repeating: 0, count: headerSize)
        guard header.withUnsafeMutableBytes({ readAll(fd, $0) }) == headerSize,
            let parsed = header.withUnsafeBytes({ parseHeader($0) })
        else { throw .damaged("bad or short header") }
        guard parsed.fileSize == size else {
            throw .damaged("size \(size) is not the \(parsed.fileSize) its header says")
        }
        var json = [UInt8](repeating: 0, count: parsed.metadataLength)
        var body = Data(count: parsed.bodyLength)
        guard json.withUnsafeMutableBytes({ readAll(fd, $0) }) == parsed.metadataLength,
            body.withUnsafeMutableBytes({ readAll(fd, $0) }) == parsed.bodyLength
        else { throw .damaged("shorter than its header says") }
        var hash = FNV1a64()
        hash.update(header[0..<20])
        hash.update(json)
        body.withUnsafeBytes { hash.update($0) }
        guard hash.value == parsed.checksum else { throw .damaged("checksum mismatch") }
        guard let metadata = try? JSONDecoder().decode(EntryMetadata.self, from: Data(json)),
            let url = URL(whatwg: metadata.url)
        else { throw .damaged("unreadable metadata") }
        return CachedEntry(
            key: metadata.key, url: url, statusCode: metadata.statusCode, contentType: metadata.contentType,
            etag: metadata.etag, lastModified: metadata.lastModified, cacheControl: metadata.cacheControl,
            expires: metadata.expires, storedAt: Date(timeIntervalSince1970: metadata.storedAt),
            expiresAt: Date(timeIntervalSince1970: metadata.expiresAt),
            requiresRevalidation: metadata.requiresRevalidation, data: body)
    }

    /// Sets the file's access and modification dates to `date`; best effort
    /// (the file may have just been evicted).
    static func touch(_ path: String, _ date: Date) {
        var times = [timespec(date), timespec(date)]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }

    private static func setModificationDate(fd: Int32, _ date: Date) {
        var times = [timespec(date), timespec(date)]
        _ = futimens(fd, &times)
    }

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        // Empty bytes have no address, and nothing to write.
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw posixError("cannot write \(path)")
            }
            offset += written
        }
    }

    private static func readAll(_ fd: Int32, _ bytes: UnsafeMutableRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var offset = 0
        while offset < bytes.count {
            let count = read(fd, base + offset, bytes.count - offset)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            offset += count
        }
        return offset
    }

    static func posixError(_ message: String) -> any Error {
        let reason = String(cString: strerror(errno))
        return CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(message): \(reason)"])
    }
}

extension timespec {
    /// `date` as a `timespec`, for file times.
    fileprivate init(_ date: Date) {
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        self.init(tv_sec: time_t(whole), tv_nsec: Int((seconds - whole) * 1e9))
    }
}
