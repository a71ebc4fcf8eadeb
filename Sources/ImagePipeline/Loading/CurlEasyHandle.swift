internal import CCurl

/// Owns one libcurl easy handle and the error buffer libcurl writes its
/// detailed messages into; frees both exactly once, in `deinit`.
///
/// Confined to the curl thread of ``CurlMultiDriver``: created, configured,
/// reset and freed there only.
final class CurlEasyHandle {
    /// The `CURL *`.
    let raw: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// Creates a handle, or returns `nil` when libcurl cannot allocate one.
    init?() {
        CurlGlobal.initializeOnce()
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
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// Runs `curl_global_init` the first time only (thread-safe: a global
    /// `let` is initialised once).
    static func initializeOnce() { _ = initialized }
}
