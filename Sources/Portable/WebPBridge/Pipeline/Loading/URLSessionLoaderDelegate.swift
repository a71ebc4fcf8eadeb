import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The delegate of ``URLSessionDataLoader``'s session: collects each task's
/// body and turns its end into exactly one resumption of the caller's
/// continuation.
///
/// `@unchecked Sendable` (`NSObject` subclasses cannot be checked): its only
/// state is `entries`, behind a `Lock`; no callback is called under it.
final class URLSessionLoaderDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    typealias Continuation = CheckedContinuation<Result<DataResponse, DataLoadingError>, Never>

    /// A `URLSessionTask` that crosses into the cancellation handler and the
    /// deadline; `URLSessionTask` is thread-safe but not marked `Sendable`
    /// on every platform.
    struct TaskHandle: @unchecked Sendable {
        let task: URLSessionTask
        init(_ task: URLSessionTask) { self.task = task }
    }

    private struct Entry {
        let request: DataRequest
        let label: String
        let onChunk: (@Sendable (Data) -> Void)?
        var continuation: Continuation?
        var body = Data()
        /// Why the loader stopped the task, which wins over the
        /// `URLError.cancelled` that stopping it produces.
        var failure: DataLoadingError?

        /// Appends `data` to the body, or records the failure when it would
        /// pass the limit; returns the callback to hand `data` to, or `nil`
        /// when the task must stop.
        mutating func accept(_ data: Data) -> (@Sendable (Data) -> Void)?? {
            guard failure == nil else { return nil }
            guard body.count + data.count <= request.maxBodyBytes else {
                failure = URLSessionLoaderDelegate.tooLarge(self)
                return nil
            }
            if let admission = request.bodyAdmission, !admission.admit(data.count) {
                failure = DataLoadingError(.tooLarge, "\(label): the body did not fit the memory it is charged to")
                return nil
            }
            body.append(data)
            return .some(onChunk)
        }
    }

    private let entries = Lock<[Int: Entry]>([:])

    func register(_ id: Int, request: DataRequest, label: String, onChunk: (@Sendable (Data) -> Void)?) {
        entries.withLock { $0[id] = Entry(request: request, label: label, onChunk: onChunk) }
    }

    /// Stores the continuation. Returns `false`, having resumed it, when the
    /// task already failed (cancelled before it started): then it must not
    /// be resumed.
    func attach(_ continuation: Continuation, to id: Int) -> Bool {
        let early: DataLoadingError? = entries.withLock { entries in
            guard let failure = entries[id]?.failure else {
                entries[id]?.continuation = continuation
                return nil
            }
            entries[id] = nil
            return failure
        }
        if let early { continuation.resume(returning: .failure(early)) }
        return early == nil
    }

    /// Records why the loader is stopping a task; the first reason wins.
    func fail(_ id: Int, _ error: DataLoadingError) {
        entries.withLock { entries in
            if entries[id] != nil, entries[id]?.failure == nil { entries[id]?.failure = error }
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let id = dataTask.taskIdentifier
        let allowed = entries.withLock { entries -> Bool in
            guard let entry = entries[id] else { return false }
            if response.expectedContentLength > entry.request.maxBodyBytes {
                entries[id]?.failure = Self.tooLarge(entry)
                return false
            }
            return true
        }
        completionHandler(allowed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = dataTask.taskIdentifier
        // The entry is changed where it is stored: a copy of it held across the
        // append would share the body's buffer and make every append copy the
        // whole body so far (quadratic in the body's size).
        let onChunk = entries.withLock { entries -> (@Sendable (Data) -> Void)?? in
            entries[id]?.accept(data)
        }
        switch onChunk {
        case nil: dataTask.cancel()
        case .some(let callback): callback?(data)
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Never follow: the redirect itself is the response, and the caller
        // asks its redirect policy before fetching the target.
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let id = task.taskIdentifier
        let finished = entries.withLock { entries -> (Continuation, Entry)? in
            guard let entry = entries[id] else { return nil }
            guard let continuation = entry.continuation else {
                // Cancelled before `load` attached its continuation (the task
                // was cancelled before it started, and Foundation reported it
                // at once): keep the outcome for `attach`, which would
                // otherwise wait for a completion that already happened.
                entries[id]?.failure =
                    entry.failure
                    ?? error.map { Self.error($0, entry.label) }
                    ?? DataLoadingError(.networkFailure, "\(entry.label): finished before it started")
                return nil
            }
            entries[id] = nil
            return (continuation, entry)
        }
        guard let (continuation, entry) = finished else { return }
        continuation.resume(returning: Self.result(of: task, entry, error))
    }

    private static func result(of task: URLSessionTask, _ entry: Entry, _ error: (any Error)?)
        -> Result<DataResponse, DataLoadingError>
    {
        if let failure = entry.failure { return .failure(failure) }
        if let error { return .failure(Self.error(error, entry.label)) }
        guard let http = task.response as? HTTPURLResponse else {
            return .failure(DataLoadingError(.networkFailure, "\(entry.label): the response was not HTTP"))
        }
        // URLSession hands the head over as a dictionary, repeated fields
        // already joined (its API offers no other view): kept as it gives it,
        // then held to the same limits as the curl loader's.
        var headers = HTTPFieldList()
        for case (let name as String, let value as String) in http.allHeaderFields {
            headers.add(name: name, value: value)
        }
        let limits = entry.request.responseFieldLimits
        guard limits.admits(count: headers.count, bytes: headers.encodedByteCount) else {
            return .failure(
                DataLoadingError(
                    .responseHeadTooLarge,
                    "\(entry.label): the upstream sent a response header section over the limit of"
                        + " \(limits.maxCount) fields or \(limits.maxBytes) bytes"))
        }
        let url = http.url ?? task.currentRequest?.url ?? entry.request.url
        return .success(DataResponse(url: url, statusCode: http.statusCode, headers: headers, body: entry.body))
    }

    private static func tooLarge(_ entry: Entry) -> DataLoadingError {
        DataLoadingError(.tooLarge, "\(entry.label): the body passed the limit of \(entry.request.maxBodyBytes) bytes")
    }

    /// The one place where Foundation's errors become ``DataLoadingError``s.
    static func error(_ error: any Error, _ label: String) -> DataLoadingError {
        let message = "\(label): \(error.localizedDescription)"
        guard let urlError = error as? URLError else { return DataLoadingError(.networkFailure, message) }
        switch urlError.code {
        case .timedOut:
            return DataLoadingError(.timedOut, message)
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
            return DataLoadingError(.cannotConnect, message)
        case .cancelled:
            return DataLoadingError(.cancelled, message)
        case .unsupportedURL, .badURL:
            return DataLoadingError(.unsupportedURL, message)
        case .dataLengthExceedsMaximum:
            return DataLoadingError(.tooLarge, message)
        default:
            return DataLoadingError(.networkFailure, message)
        }
    }
}
