internal import CMicroHTTPD
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A libmicrohttpd response built from an ``HTTPResponse``; owns the C
/// handle and releases it in `deinit` (a queued response is retained by
/// libmicrohttpd until sent).
///
/// For `HEAD`, and for statuses that carry no body, the body is neither
/// copied nor opened: a response of the right length whose reader is never
/// called gives the `Content-Length` a `GET` would have.
final class MHDResponse {
    let pointer: OpaquePointer
    let status: HTTPStatus
    /// Body bytes that will go on the wire.
    let bodyBytes: UInt64

    /// Builds the response; a file that cannot be opened gives 404 or 500.
    /// `nil` only when libmicrohttpd cannot allocate.
    init?(_ response: HTTPResponse, isHEAD: Bool, closeConnection: Bool) {
        let sendsBody = !isHEAD && response.status.allowsBody
        var status = response.status
        var headers = response.headers
        let created: OpaquePointer?
        var length: UInt64 = 0
        switch response.body {
        case .empty:
            created = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
        case .data(let data):
            length = UInt64(data.count)
            created = sendsBody ? Self.sending(data) : Self.bodiless(length: length, status: response.status)
        case .file(let path, let offset, let requested):
            switch Self.openFile(path: path, offset: offset, length: requested, open: sendsBody) {
            case .success(let file):
                length = file.length
                created =
                    file.descriptor.map { descriptor in
                        let response = MHD_create_response_from_fd_at_offset64(file.length, descriptor, offset)
                        if response == nil { close(descriptor) }
                        return response
                    } ?? Self.bodiless(length: length, status: response.status)
            case .failure(let failure):
                status = failure.status
                headers = ["Content-Type": "text/plain; charset=utf-8"]
                let message = Data("\(failure.message)\n".utf8)
                length = UInt64(message.count)
                created = isHEAD ? Self.bodiless(length: length, status: status) : Self.sending(message)
            }
        }
        guard let created else { return nil }
        pointer = created
        self.status = status
        bodyBytes = sendsBody ? length : 0
        for field in headers where !Self.managedByServer(field.name) {
            // libmicrohttpd refuses fields with CR or LF; such a field is dropped.
            _ = MHD_add_response_header(pointer, field.name, field.value)
        }
        if closeConnection { _ = MHD_add_response_header(pointer, "Connection", "close") }
    }

    deinit { MHD_destroy_response(pointer) }

    /// Bodies from this size up are sent from the `Data`'s own storage
    /// rather than copied: copying an 88 KB cached variant for every request
    /// cost more than building the rest of the response.
    static let sharingThreshold = 1024

    /// A response whose body is `data`. Small bodies are copied (cheaper
    /// than a box, and a small `Data` may keep its bytes inline, with no
    /// storage of its own to point at); larger ones are sent from the
    /// `Data`'s heap storage, which a retained ``SharedBody`` keeps alive
    /// and unmodified until libmicrohttpd destroys the response.
    private static func sending(_ data: Data) -> OpaquePointer? {
        guard data.count >= sharingThreshold else {
            return data.withUnsafeBytes {
                MHD_create_response_from_buffer(
                    $0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
            }
        }
        let box = Unmanaged.passRetained(SharedBody(data))
        // A `Data` of this size holds its bytes in a heap buffer that does
        // not move while the (immutable, retained) value lives.
        let created = box.takeUnretainedValue().data.withUnsafeBytes {
            MHD_create_response_from_buffer_with_free_callback_cls(
                $0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), releaseSharedBody, box.toOpaque())
        }
        if created == nil { box.release() }
        return created
    }

    /// A response that declares `length` bytes but never produces them
    /// (libmicrohttpd sends no body for `HEAD`, 204 or 304).
    private static func bodiless(length: UInt64, status: HTTPStatus) -> OpaquePointer? {
        guard status.allowsBody else { return MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT) }
        return MHD_create_response_from_callback(length, 4096, refuseToRead, nil, nil)
    }

    /// libmicrohttpd computes these from the body and the connection state.
    private static func managedByServer(_ name: String) -> Bool {
        HTTPHeaders.namesMatch(name, "Content-Length") || HTTPHeaders.namesMatch(name, "Transfer-Encoding")
    }

    private struct OpenedFile {
        var descriptor: Int32?
        var length: UInt64
    }

    private struct FileFailure: Error {
        var status: HTTPStatus
        var message: String
    }

    /// Opens (or, for `HEAD`, only inspects) a regular file and checks the range.
    private static func openFile(path: String, offset: UInt64, length: UInt64?, open shouldOpen: Bool)
        -> Result<OpenedFile, FileFailure>
    {
        var descriptor: Int32? = nil
        var info = stat()
        if shouldOpen {
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            guard opened >= 0 else { return .failure(failure(errno: errno)) }
            descriptor = opened
            guard fstat(opened, &info) == 0 else {
                let error = failure(errno: errno)
                close(opened)
                return .failure(error)
            }
        } else if stat(path, &info) != 0 {
            return .failure(failure(errno: errno))
        }
        let size = UInt64(info.st_size)
        let isRegular = (info.st_mode & S_IFMT) == S_IFREG
        let wanted = length ?? (size >= offset ? size - offset : 0)
        guard isRegular, offset <= size, wanted <= size - offset else {
            if let descriptor { close(descriptor) }
            return .failure(
                FileFailure(
                    status: .internalServerError,
                    message: isRegular ? "byte range outside the file" : "not a regular file"))
        }
        return .success(OpenedFile(descriptor: descriptor, length: wanted))
    }

    private static func failure(errno code: Int32) -> FileFailure {
        switch code {
        case ENOENT, ENOTDIR: FileFailure(status: .notFound, message: "not found")
        case EACCES, EPERM: FileFailure(status: .forbidden, message: "forbidden")
        default: FileFailure(status: .internalServerError, message: String(cString: strerror(code)))
        }
    }
}

/// The bytes of a response body while libmicrohttpd sends them.
private final class SharedBody {
    let data: Data
    init(_ data: Data) { self.data = data }
}

/// Frees a ``SharedBody`` when libmicrohttpd destroys its response.
private let releaseSharedBody: MHD_ContentReaderFreeCallback = { box in
    guard let box else { return }
    Unmanaged<SharedBody>.fromOpaque(box).release()
}

/// The reader of a bodiless response: never called, since libmicrohttpd
/// sends no body for it; ends the connection with an error if it were.
private let refuseToRead: MHD_ContentReaderCallback = { _, _, _, _ in -2 }
