// Linux (and any platform whose manifest provides libcurl): the curl loader.
#if canImport(CCurl)
    internal import CCurl
    import Foundation

    /// One request's life inside ``CurlMultiDriver``: the options it sets on an
    /// easy handle, the body and headers received, and the continuation it
    /// resumes exactly once.
    ///
    /// `@unchecked Sendable` because it crosses from the calling task to the
    /// curl thread: the request and chunk callback are immutable, the
    /// cancellation flag is behind a `Lock`, and every other property is touched on
    /// the curl thread only (the libcurl callbacks run there too).
    final class CurlTransfer: @unchecked Sendable {
        typealias Continuation = CheckedContinuation<Result<DataResponse, DataLoadingError>, Never>

        let request: DataRequest
        private let onChunk: (@Sendable (Data) -> Void)?
        private let cancelled = Lock<Bool>(false)

        // Curl thread only.
        private var continuation: Continuation?
        private(set) var easy: CurlEasyHandle?
        private var headerList: UnsafeMutablePointer<curl_slist>?
        private var body = Data()
        private var fieldReader: ResponseFieldReader
        private var abortReason: DataLoadingError?
        private var finished = false
        private var idleSockets: IdleSockets?
        /// The connection libcurl chose held bytes no request asked for, so
        /// the transfer stopped before its request to start again on a new one.
        private(set) var needsFreshConnection = false
        private var startedAgain = false

        init(request: DataRequest, onChunk: (@Sendable (Data) -> Void)?) {
            self.request = request
            self.onChunk = onChunk
            fieldReader = ResponseFieldReader(limits: request.responseFieldLimits)
        }

        deinit {
            curl_slist_free_all(headerList)
        }

        /// `GET http://…`, the prefix of every message about this transfer.
        var label: String { "\(request.method) \(request.url.absoluteString)" }

        /// Marks the transfer cancelled; any thread. The next libcurl callback
        /// aborts the transfer, and the driver removes it from the multi handle.
        func markCancelled() { cancelled.withLock { $0 = true } }

        var isCancelled: Bool { cancelled.withLock { $0 } }

        /// Remembers where to deliver the result.
        func attach(_ continuation: Continuation) { self.continuation = continuation }

        /// Sets every option for this request on `easy`, which was just reset;
        /// a connection it would reuse is checked against `idleSockets`.
        func configure(
            _ easy: CurlEasyHandle, _ configuration: CurlDataLoader.Configuration, idleSockets: IdleSockets
        ) throws(DataLoadingError) {
            self.easy = easy
            self.idleSockets = idleSockets
            let raw = easy.raw
            func set(_ option: CURLoption, _ value: Int, _ name: String) throws(DataLoadingError) {
                try CurlCode.check(webpbridge_curl_easy_setopt_long(raw, option, value), name)
            }
            func set(_ option: CURLoption, _ value: String, _ name: String) throws(DataLoadingError) {
                try CurlCode.check(webpbridge_curl_easy_setopt_string(raw, option, value), name)
            }
            let context = Unmanaged.passUnretained(self).toOpaque()
            try set(CURLOPT_URL, request.url.absoluteString, "CURLOPT_URL")
            try set(CURLOPT_PROTOCOLS_STR, "http,https", "CURLOPT_PROTOCOLS_STR")
            try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https", "CURLOPT_REDIR_PROTOCOLS_STR")
            try set(CURLOPT_NOSIGNAL, 1, "CURLOPT_NOSIGNAL")
            try set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1), "CURLOPT_HTTP_VERSION")
            try set(CURLOPT_TCP_KEEPALIVE, 1, "CURLOPT_TCP_KEEPALIVE")
            let timeout = Self.milliseconds(request.timeout)
            try set(CURLOPT_TIMEOUT_MS, timeout, "CURLOPT_TIMEOUT_MS")
            try set(
                CURLOPT_CONNECTTIMEOUT_MS, min(timeout, Self.milliseconds(configuration.connectTimeout)),
                "CURLOPT_CONNECTTIMEOUT_MS")
            // Through a proxy the environment names, the CONNECT answer's head is
            // not the response's: the field reader sees only the origin's.
            try set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1, "CURLOPT_SUPPRESS_CONNECT_HEADERS")
            // Never follow: a 3xx goes back to the caller, which asks its redirect policy before any hop.
            try set(CURLOPT_FOLLOWLOCATION, 0, "CURLOPT_FOLLOWLOCATION")
            // A declared Content-Length over the limit fails before any byte of
            // the body; the write callback enforces it for chunked bodies.
            try CurlCode.check(
                webpbridge_curl_easy_setopt_offset(raw, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxBodyBytes)),
                "CURLOPT_MAXFILESIZE_LARGE")
            if let userAgent = configuration.userAgent,
                !request.headers.contains("User-Agent")
            {
                try set(CURLOPT_USERAGENT, userAgent, "CURLOPT_USERAGENT")
            }
            if let body = request.body {
                // COPYPOSTFIELDS copies the bytes now, so `body` need not outlive this call;
                // the size comes first so binary bodies are not cut at a NUL.
                try CurlCode.check(
                    webpbridge_curl_easy_setopt_offset(raw, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)),
                    "CURLOPT_POSTFIELDSIZE_LARGE")
                let copied = body.withUnsafeBytes { bytes in
                    let pointer = UnsafeMutableRawPointer(
                        mutating: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!)
                    return webpbridge_curl_easy_setopt_pointer(raw, CURLOPT_COPYPOSTFIELDS, pointer)
                }
                try CurlCode.check(copied, "CURLOPT_COPYPOSTFIELDS")
            }
            try CurlCode.check(webpbridge_curl_easy_setopt_prereq(raw, Self.prereqCallback), "CURLOPT_PREREQFUNCTION")
            try CurlCode.check(
                webpbridge_curl_easy_setopt_pointer(raw, CURLOPT_PREREQDATA, context), "CURLOPT_PREREQDATA")
            // The method as given (RFC 9110 §9.1: names are case-sensitive). libcurl's own GET and
            // POST only where they are the same request: with a body it would send a GET as POST.
            switch request.method {
            case "GET" where request.body == nil, "POST" where request.body != nil: break
            case "HEAD":
                // A HEAD's body has no meaning (RFC 9110 §9.3.2); libcurl sends none.
                try set(CURLOPT_NOBODY, 1, "CURLOPT_NOBODY")
                // An upstream may send a body after a HEAD's head, later than the check before the
                // next request could see it: the connection is not kept.
                try set(CURLOPT_FORBID_REUSE, 1, "CURLOPT_FORBID_REUSE")
            default:
                guard HTTPFieldSyntax.isToken(request.method) else {
                    throw DataLoadingError(.networkFailure, "\(label): refused to send a malformed method")
                }
                try set(CURLOPT_CUSTOMREQUEST, request.method, "CURLOPT_CUSTOMREQUEST")
            }
            for field in request.headers {
                // Checked again where the line is written (the server refuses such
                // heads, but fields are also built in code): a CR, LF or NUL in a
                // value or a name that is not a token would make the upstream read
                // other fields than these. Sent in order, bytes as they are.
                guard HTTPFieldSyntax.isToken(field.name), HTTPFieldSyntax.isValidValue(bytes: field.valueBytes) else {
                    throw DataLoadingError(.networkFailure, "\(label): refused to send a malformed header field")
                }
                // libcurl reads `Name:` as "remove the field" and sends an empty value written `Name;`.
                let line =
                    field.valueBytes.isEmpty
                    ? Array(field.name.utf8) + Array(";".utf8)
                    : Array(field.name.utf8) + Array(": ".utf8) + field.valueBytes
                try appendHeaderLine(line)
            }
            // Fields libcurl would add of its own, where the request has none: `Accept: */*`, a body's
            // `Content-Type: application/x-www-form-urlencoded` and `Expect: 100-continue`. `Name:`
            // removes them, so the upstream gets the fields asked for and no others.
            for name in ["Accept", "Content-Type", "Expect"] where !request.headers.contains(name) {
                try appendHeaderLine(Array(name.utf8) + Array(":".utf8))
            }
            if let headerList {
                try CurlCode.check(
                    webpbridge_curl_easy_setopt_pointer(raw, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headerList)),
                    "CURLOPT_HTTPHEADER")
            }
            try CurlCode.check(
                webpbridge_curl_easy_setopt_function(raw, CURLOPT_WRITEFUNCTION, Self.writeCallback),
                "CURLOPT_WRITEFUNCTION")
            try CurlCode.check(
                webpbridge_curl_easy_setopt_pointer(raw, CURLOPT_WRITEDATA, context), "CURLOPT_WRITEDATA")
            try CurlCode.check(
                webpbridge_curl_easy_setopt_function(raw, CURLOPT_HEADERFUNCTION, Self.headerCallback),
                "CURLOPT_HEADERFUNCTION")
            try CurlCode.check(
                webpbridge_curl_easy_setopt_pointer(raw, CURLOPT_HEADERDATA, context), "CURLOPT_HEADERDATA")
        }

        /// Adds one line (without its line end) to the request's header list.
        private func appendHeaderLine(_ bytes: [UInt8]) throws(DataLoadingError) {
            guard let list = curl_slist_append(headerList, bytes.map { CChar(bitPattern: $0) } + [0]) else {
                throw DataLoadingError(.networkFailure, "\(label): out of memory for the request headers")
            }
            headerList = list
        }

        /// Readies a transfer that stopped for ``needsFreshConnection`` to be
        /// added again, on a new connection. Once only: returns `false` when
        /// it already was.
        func prepareFreshConnection() -> Bool {
            guard needsFreshConnection, !startedAgain, let easy else { return false }
            needsFreshConnection = false
            startedAgain = true
            return webpbridge_curl_easy_setopt_long(easy.raw, CURLOPT_FRESH_CONNECT, 1) == CURLE_OK
        }

        /// Builds the result once libcurl reports the transfer done (the easy
        /// handle is already out of the multi handle) and delivers it. Returns
        /// the easy handle, for the driver to pool.
        func complete(_ code: CURLcode) -> CurlEasyHandle? {
            if let abortReason {
                return finish(.failure(abortReason))
            } else if isCancelled {
                return finish(.failure(Self.cancellation(label)))
            } else if code != CURLE_OK {
                return finish(.failure(CurlCode.error(code, detail: easy?.errorText ?? "", context: label)))
            } else if let easy {
                var status = 0
                var effective: UnsafePointer<CChar>?
                do {
                    try CurlCode.check(
                        webpbridge_curl_easy_getinfo_long(easy.raw, CURLINFO_RESPONSE_CODE, &status),
                        "\(label): CURLINFO_RESPONSE_CODE")
                    try CurlCode.check(
                        webpbridge_curl_easy_getinfo_string(easy.raw, CURLINFO_EFFECTIVE_URL, &effective),
                        "\(label): CURLINFO_EFFECTIVE_URL")
                } catch {
                    return finish(.failure(error))
                }
                // libcurl itself refuses a status line below 100; a status it
                // could not read is a failed transfer, never a response.
                guard (100...999).contains(status) else {
                    return finish(
                        .failure(DataLoadingError(.networkFailure, "\(label): no HTTP status (got \(status))")))
                }
                let url = effective.flatMap { URL(string: String(cString: $0)) } ?? request.url
                return finish(
                    .success(DataResponse(url: url, statusCode: status, headers: fieldReader.fields, body: body)))
            } else {
                return finish(.failure(DataLoadingError(.networkFailure, "\(label): finished without a handle")))
            }
        }

        /// Resumes the continuation (once) and lets go of the handle's resources.
        /// Returns the easy handle, for the driver to pool.
        @discardableResult
        func finish(_ result: Result<DataResponse, DataLoadingError>) -> CurlEasyHandle? {
            guard !finished else { return nil }
            finished = true
            curl_slist_free_all(headerList)
            headerList = nil
            body = Data()
            fieldReader = ResponseFieldReader(limits: request.responseFieldLimits)
            let easy = self.easy
            self.easy = nil
            continuation?.resume(returning: result)
            continuation = nil
            return easy
        }

        static func cancellation(_ label: String) -> DataLoadingError {
            DataLoadingError(.cancelled, "\(label): cancelled")
        }

        static func milliseconds(_ duration: Duration) -> Int {
            let (seconds, attoseconds) = duration.components
            let total = seconds.multipliedReportingOverflow(by: 1000)
            if total.overflow { return Int.max }
            return max(1, Int(total.partialValue + attoseconds / 1_000_000_000_000_000))
        }

        // MARK: libcurl callbacks (on the curl thread, inside curl_multi_perform)

        /// A write callback's value that aborts the transfer (anything other
        /// than the byte count given).
        private static let abort = 0

        private func receiveBody(_ buffer: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
            if isCancelled {
                abortReason = Self.cancellation(label)
                return Self.abort
            }
            guard body.count + count <= request.maxBodyBytes else {
                abortReason = DataLoadingError(
                    .tooLarge, "\(label): the body passed the limit of \(request.maxBodyBytes) bytes")
                return Self.abort
            }
            if let admission = request.bodyAdmission, !admission.admit(count) {
                abortReason = DataLoadingError(.tooLarge, "\(label): the body did not fit the memory it is charged to")
                return Self.abort
            }
            let bytes = UnsafeRawBufferPointer(start: buffer, count: count)
            if let onChunk {
                let piece = Data(bytes)
                body.append(piece)
                onChunk(piece)
            } else {
                body.append(contentsOf: bytes)
            }
            return count
        }

        private func receiveHeader(_ buffer: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
            if isCancelled {
                abortReason = Self.cancellation(label)
                return Self.abort
            }
            let lengthKnown = fieldReader.declaredLength != nil
            switch fieldReader.read(UnsafeRawBufferPointer(start: buffer, count: count)) {
            case nil: break
            case .malformed(let reason):
                abortReason = DataLoadingError(.networkFailure, "\(label): the upstream sent \(reason)")
                return Self.abort
            case .tooLarge(let reason):
                abortReason = DataLoadingError(.responseHeadTooLarge, "\(label): the upstream sent \(reason)")
                return Self.abort
            }
            if !lengthKnown, body.isEmpty, let length = fieldReader.declaredLength, length <= request.maxBodyBytes {
                body.reserveCapacity(length)
            }
            return count
        }

        /// Before the request is written on a connection libcurl made or
        /// chose to reuse: a reused one holding bytes no request asked for
        /// stops the transfer, to start again on a new connection.
        private func beforeRequest(localPort: Int, remotePort: Int) -> Int32 {
            guard !startedAgain, idleSockets?.hasUnaskedInput(localPort: localPort, remotePort: remotePort) == true
            else { return CURL_PREREQFUNC_OK }
            needsFreshConnection = true
            return CURL_PREREQFUNC_ABORT
        }

        private static let prereqCallback: curl_prereq_callback = { context, _, _, remotePort, localPort in
            guard let context else { return CURL_PREREQFUNC_OK }
            return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
                .beforeRequest(localPort: Int(localPort), remotePort: Int(remotePort))
        }

        private static let writeCallback: webpbridge_curl_data_callback = { buffer, size, count, context in
            guard let buffer, let context else { return 0 }
            return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().receiveBody(buffer, size * count)
        }

        private static let headerCallback: webpbridge_curl_data_callback = { buffer, size, count, context in
            guard let buffer, let context else { return 0 }
            return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().receiveHeader(buffer, size * count)
        }
    }
#endif
