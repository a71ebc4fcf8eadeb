// Linux (and any platform whose manifest provides libcurl): the curl loader.
#if canImport(CCurl)
    internal import CCurl

    /// Owns one libcurl easy handle and the error buffer libcurl writes its
    /// detailed messages into; frees both exactly once, in `deinit`.
    ///
    /// Confined to the curl thread of ``CurlMultiDriver``: created, configured,
    /// reset and freed there only. A driver exists only once
    /// `curl_global_init` succeeded (see ``CurlGlobal``), so no handle is made
    /// before it.
    final class CurlEasyHandle {
        /// The `CURL *`.
        let raw: UnsafeMutableRawPointer
        private let errorBuffer: UnsafeMutablePointer<CChar>

        /// Creates a handle, or returns `nil` when libcurl cannot allocate one.
        init?() {
            guard let raw = curl_easy_init() else { return nil }
            self.raw = raw
            errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
            errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        }

        deinit {
            curl_easy_cleanup(raw)
            errorBuffer.deallocate()
        }

        /// Forgets every option of the previous transfer (the connection cache
        /// lives in the multi handle, so reuse is not lost) and re-attaches the
        /// error buffer, which `curl_easy_reset` detaches.
        func reset() throws(DataLoadingError) {
            curl_easy_reset(raw)
            errorBuffer[0] = 0
            try CurlCode.check(
                webpbridge_curl_easy_setopt_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
        }

        /// libcurl's detailed message for the last failure, or `""`.
        var errorText: String { String(cString: errorBuffer) }
    }

    /// `curl_global_init`, called once per process before the first handle.
    enum CurlGlobal {
        /// What `curl_global_init` returned; it runs the first time this is read
        /// (thread-safe: a static `let` is initialised once).
        static let result: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

        /// Throws when `code`, a `curl_global_init` result, is a failure: libcurl
        /// must not be used then, so no transfer may start.
        static func check(_ code: CURLcode) throws(DataLoadingError) {
            try CurlCode.check(code, "curl_global_init")
        }
    }
#endif
