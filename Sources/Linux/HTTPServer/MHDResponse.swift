internal import CMicroHTTPD
import Foundation
import WebPBridge

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
///
/// A header field libmicrohttpd refuses (a CR or LF in its value, a space,
/// tab, CR or LF in its name, a field it manages itself) is never dropped:
/// the whole response is replaced by a 500 naming the field, and
/// ``refusedField`` says so for the server to count. A response that
/// went out without one of its fields could say less than it means — no
/// `Vary`, no `Cache-Control: private` — and be cached for the wrong
/// clients; a 500 is not cached.
///
/// libmicrohttpd writes the response head into the connection's memory
/// pool, beside the request head it still holds; a head that does not fit
/// there makes it close the connection without a byte. So a head larger
/// than `headRoom` is also replaced by a 500 that names the sizes.
final class MHDResponse {
    let pointer: OpaquePointer
    let status: HTTPStatus
    /// Body bytes that will go on the wire.
    let bodyBytes: UInt64
    /// The name of the handler's field that libmicrohttpd refused, when
    /// this is the 500 sent instead of the handler's response.
    let refusedField: String?

    /// Builds the response; a file that cannot be opened gives 404 or 500,
    /// a header field libmicrohttpd refuses gives 500.
    /// `nil` only when libmicrohttpd cannot allocate.
    init?(_ response: HTTPResponse, isHEAD: Bool, closeConnection: Bool, headRoom: Int = .max) {
        let headBytes = Self.estimatedHeadBytes(of: response)
        let outcome: Outcome =
            headBytes > headRoom
            ? .tooLarge : Self.make(response, isHEAD: isHEAD, closeConnection: closeConnection)
        switch outcome {
        case .built(let built):
            (pointer, status, bodyBytes, refusedField) = (built.pointer, built.status, built.bodyBytes, nil)
        case .refused, .tooLarge:
            let reason =
                if case .refused(let name) = outcome {
                    "the response carried a header field the server cannot send: \(name)"
                } else {
                    "the response head (\(headBytes) bytes) does not fit in the connection's memory "
                        + "beside its request (room for \(max(0, headRoom)) bytes)"
                }
            let refusal = HTTPResponse.text(.internalServerError, reason)
            guard case .built(let built) = Self.make(refusal, isHEAD: isHEAD, closeConnection: closeConnection)
            else { return nil }
            let refused: String? = if case .refused(let name) = outcome { name } else { nil }
            (pointer, status, bodyBytes, refusedField) = (built.pointer, built.status, built.bodyBytes, refused)
        case .outOfMemory:
            return nil
        }
    }

    deinit { MHD_destroy_response(pointer) }

    /// What the response head costs in the connection's memory, erring
    /// high: the fields as written, plus the status line and the fields
    /// libmicrohttpd adds itself (`Date`, `Content-Length`, `Connection`).
    static func estimatedHeadBytes(of response: HTTPResponse) -> Int {
        response.headers.encodedByteCount + serverAddedHeadBytes
    }

    /// The status line, `Date`, `Content-Length`, `Connection` and the blank
    /// line, with room to spare.
    static let serverAddedHeadBytes = 256

    private struct Built {
        var pointer: OpaquePointer
        var status: HTTPStatus
        var bodyBytes: UInt64
    }

    private enum Outcome {
        case built(Built)
        /// libmicrohttpd refused the field of this name; nothing is kept.
        case refused(String)
        /// The head would not fit in the connection's memory; nothing is kept.
        case tooLarge
        case outOfMemory
    }

    private static func make(_ response: HTTPResponse, isHEAD: Bool, closeConnection: Bool) -> Outcome {
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
            created = sendsBody ? Self.copying(data) : Self.bodiless(length: length, status: response.status)
        case .bytes(let bytes):
            length = UInt64(bytes.count)
            created = sendsBody ? Self.sharing(bytes) : Self.bodiless(length: length, status: response.status)
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
                created = isHEAD ? Self.bodiless(length: length, status: status) : Self.copying(message)
            }
        }
        guard let created else { return .outOfMemory }
        if closeConnection { headers.add(name: "Connection", value: "close") }
        for field in headers where !Self.managedByServer(field.name) {
            // An empty value is valid HTTP, but libmicrohttpd refuses it:
            // a single space is optional whitespace, which every reader
            // strips back to the empty value.
            let added: MHD_Result
            if field.isUTF8 {
                added = MHD_add_response_header(created, field.name, field.value.isEmpty ? " " : field.value)
            } else {
                // Bytes that are not UTF-8 (obs-text) are relayed as sent.
                added = MHD_add_response_header(
                    created, field.name, field.valueBytes.map { CChar(bitPattern: $0) } + [0])
            }
            guard added == .YES else {
                MHD_destroy_response(created)
                return .refused(field.name)
            }
        }
        return .built(Built(pointer: created, status: status, bodyBytes: sendsBody ? length : 0))
    }

    /// A response whose body is a copy of `data` in memory libmicrohttpd
    /// owns and frees: a `Data` lends its pointer only inside
    /// `withUnsafeBytes`, and libmicrohttpd copies before it returns.
    private static func copying(_ data: Data) -> OpaquePointer? {
        guard !data.isEmpty else { return MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT) }
        return data.withUnsafeBytes {
            MHD_create_response_from_buffer(
                $0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
        }
    }

    /// A response sent from `bytes`' own memory, without a copy: retained
    /// here and released by libmicrohttpd's free callback, which runs once,
    /// when the last connection sending the response is done with it.
    /// CPU per response on HTTPServerBenchmark with an 88 KB body (medians
    /// of 9 on a busy machine): 20.6 µs sent this way, 22.0 µs copied per
    /// response; on a quieter one 17 µs shared, 21–25 copied, and 38–52
    /// read in pieces through a content-reader callback.
    private static func sharing(_ bytes: BodyBytes) -> OpaquePointer? {
        guard let start = bytes.baseAddress else {
            return MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
        }
        let retained = Unmanaged.passRetained(bytes)
        let created = MHD_create_response_from_buffer_with_free_callback_cls(
            bytes.count, UnsafeMutableRawPointer(mutating: start), releaseBodyBytes, retained.toOpaque())
        // libmicrohttpd calls no free callback for a response it could not create.
        if created == nil { retained.release() }
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
        HTTPFieldList.namesMatch(name, "Content-Length") || HTTPFieldList.namesMatch(name, "Transfer-Encoding")
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

/// Lets go of the ``BodyBytes`` a response retained (see `sharing(_:)`).
private let releaseBodyBytes: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    let retained = Unmanaged<BodyBytes>.fromOpaque(context)
    retained.takeUnretainedValue().responseFreed()
    retained.release()
}

/// The reader of a bodiless response: never called, since libmicrohttpd
/// sends no body for it; ends the connection with an error if it were.
private let refuseToRead: MHD_ContentReaderCallback = { _, _, _, _ in webpbridge_content_reader_end_with_error }
