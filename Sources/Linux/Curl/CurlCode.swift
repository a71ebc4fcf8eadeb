// Linux (and any platform whose manifest provides libcurl): the curl loader.
#if canImport(CCurl)
    internal import CCurl

    /// The one place where libcurl result codes become ``DataLoadingError``s,
    /// carrying curl's own messages.
    enum CurlCode {
        /// Throws when `code` is not `CURLE_OK`.
        /// - Parameters:
        ///   - code: What libcurl returned.
        ///   - context: What was being done, for the message.
        static func check(_ code: CURLcode, _ context: @autoclosure () -> String) throws(DataLoadingError) {
            if code != CURLE_OK { throw error(code, detail: "", context: context()) }
        }

        /// Throws when a multi-interface call did not return `CURLM_OK`.
        static func check(_ code: CURLMcode, _ context: @autoclosure () -> String) throws(DataLoadingError) {
            if code != CURLM_OK {
                let message = String(cString: curl_multi_strerror(code))
                throw DataLoadingError(.networkFailure, "\(context()): \(message)")
            }
        }

        /// The error for a failed transfer.
        /// - Parameters:
        ///   - code: The transfer's result.
        ///   - detail: The `CURLOPT_ERRORBUFFER` text, often more precise than
        ///     the code's generic message.
        ///   - context: What was being fetched, e.g. `GET http://…`.
        static func error(_ code: CURLcode, detail: String, context: String) -> DataLoadingError {
            let generic = String(cString: curl_easy_strerror(code))
            let message =
                detail.isEmpty || detail == generic ? "\(context): \(generic)" : "\(context): \(generic) (\(detail))"
            return DataLoadingError(kind(of: code), message)
        }

        private static func kind(of code: CURLcode) -> DataLoadingError.Kind {
            switch code {
            case CURLE_OPERATION_TIMEDOUT:
                .timedOut
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
                .cannotConnect
            case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
                .unsupportedURL
            case CURLE_FILESIZE_EXCEEDED:
                .tooLarge
            case CURLE_ABORTED_BY_CALLBACK:
                .cancelled
            default:
                .networkFailure
            }
        }
    }
#endif
