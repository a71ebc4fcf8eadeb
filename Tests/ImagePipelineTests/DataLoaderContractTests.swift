import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// The ``DataLoading`` contract, against a live origin on 127.0.0.1, for
/// every loader. One test at a time: the machine has two cores and some
/// tests open hundreds of connections.
@Suite(.serialized, .timeLimit(.suiteBound))
struct DataLoaderContractTests {
    @Test(arguments: LoaderKind.allCases)
    func okResponseCarriesBodyHeadersAndURL(_ kind: LoaderKind) async throws {
        let loader = kind.make()
        try await OriginServer.with { base in
            let url = URL(string: "\(base)/hello")!
            let response = try await loader.load(DataRequest(url: url))
            #expect(response.statusCode == 200)
            #expect(response.body == Data("hello, loader".utf8))
            #expect(response.headers["X-Origin"] == "test")
            #expect(response.headers["content-type"] == "text/plain")
            #expect(response.headers["content-length"] == "13")
            #expect(response.url == url)
        }
    }

    @Test(arguments: LoaderKind.allCases)
    func notFoundIsAResponseNotAnError(_ kind: LoaderKind) async throws {
        let loader = kind.make()
        try await OriginServer.with { base in
            let response = try await loader.load(DataRequest(url: URL(string: "\(base)/missing")!))
            #expect(response.statusCode == 404)
            #expect(String(decoding: response.body, as: UTF8.self) == "no such image\n")
        }
    }

    @Test(arguments: LoaderKind.allCases)
    func headReturnsHeadersWithoutBody(_ kind: LoaderKind) async throws {
        let loader = kind.make()
        try await OriginServer.with { base in
            let request = DataRequest(url: URL(string: "\(base)/large")!, method: "HEAD")
            let response = try await loader.load(request)
            #expect(response.statusCode == 200)
            #expect(response.body.isEmpty)
            #expect(response.headers["Content-Length"] == "\(OriginServer.largeBody.count)")
        }
    }

    @Test(arguments: LoaderKind.allCases)
    func largeBodyArrivesInChunksThatSumToTheBody(_ kind: LoaderKind) async throws {
        let loader = kind.make()
        try await OriginServer.with { base in
            let chunks = ChunkCollector()
            let response = try await loader.load(DataRequest(url: URL(string: "\(base)/large")!)) { chunks.append($0) }
            #expect(response.statusCode == 200)
            #expect(response.body == OriginServer.largeBody)
            #expect(chunks.data == OriginServer.largeBody)
            #expect(chunks.pieces > 1)
        }
    }

    @Test(arguments: LoaderKind.allCases)
    func bodyOverTheLimitFailsAsTooLarge(_ kind: LoaderKind) async throws {
        let loader = kind.make()
        try await OriginServer.with { base in
            let chunks = ChunkCollector()
            let request = DataRequest(url: URL(string: "\(base)/large")!, maxBodyBytes: 1 << 20)
            await expectFailure(.tooLarge) { () async throws(DataLoadingError) in
                try await loader.load(request) { chunks.append($0) }
            }
            #expect(chunks.data.count <= 1 << 20)
        }
    }

    @Test(arguments: LoaderKind.allCases)
    func slowOriginFailsAsTimedOut(_ kind: LoaderKind) async throws {
        let loader = kind.make()
        try await OriginServer.with { base in
            let request = DataRequest(url: URL(string: "\(base)/slow")!, timeout: .milliseconds(300))
            let error = await expectFailure(.timedOut) { () async throws(DataLoadingError) in
                try await loader.load(request)
            }
            if kind == .curl {
                // curl_easy_strerror's text, then the error buffer's detail.
                #expect(
                    error?.message.hasPrefix("GET \(base)/slow: Timeout was reached (") == true,
                    "\(error?.message ?? "")")
            }
        }
    }

    @Test(arguments: LoaderKind.allCases)
    func refusedConnectionFailsAsCannotConnect(_ kind: LoaderKind) async throws {
        let loader = kind.make()
        let url = try await LoopbackServer.refusedURL()
        let error = await expectFailure(.cannotConnect) { () async throws(DataLoadingError) in
            try await loader.load(DataRequest(url: url, timeout: .seconds(10)))
        }
        if kind == .curl {
            #expect(error?.message.contains("Couldn't connect to server") == true, "\(error?.message ?? "")")
        }
    }

    @Test(arguments: LoaderKind.allCases)
    func onlyHTTPAndHTTPSAreFetched(_ kind: LoaderKind) async throws {
        let loader = kind.make()
        await expectFailure(.unsupportedURL) { () async throws(DataLoadingError) in
            try await loader.load(DataRequest(url: URL(string: "file:///etc/passwd")!))
        }
    }

    /// Loaders never follow a redirect themselves: the pipeline follows
    /// hops, asking its ``RedirectPolicy`` before each one, so no loader can
    /// reach a host the policy has not allowed.
    @Test(arguments: LoaderKind.allCases)
    func aRedirectIsReturnedNeverFollowed(_ kind: LoaderKind) async throws {
        let loader = kind.make()
        try await OriginServer.with { base in
            let url = URL(string: "\(base)/redirect")!
            let response = try await loader.load(DataRequest(url: url))
            #expect(response.statusCode == 302)
            #expect(response.headers["Location"] == "/hello")
            #expect(response.headers["X-Hop"] == "first")
            #expect(response.url == url)
            #expect(response.redirectLocation == URL(string: "\(base)/hello")!)
        }
    }

    @Test(arguments: LoaderKind.allCases)
    func requestHeadersAreSent(_ kind: LoaderKind) async throws {
        let loader = kind.make()
        try await OriginServer.with { base in
            let request = DataRequest(url: URL(string: "\(base)/echo")!, headers: ["If-None-Match": "\"v42\""])
            let response = try await loader.load(request)
            #expect(response.headers["X-Echo-If-None-Match"] == "\"v42\"")
        }
    }

    @Test(arguments: LoaderKind.allCases)
    func cancellingWhileWaitingForTheOriginThrowsCancelled(_ kind: LoaderKind) async throws {
        let loader = kind.make()
        try await OriginServer.withArrivals { base, arrivals in
            let request = DataRequest(url: URL(string: "\(base)/slow")!, timeout: .seconds(20))
            let task = Task { await loader.result(request) }
            // Cancelled only once the request is at the origin, waiting for its answer.
            var arrived = arrivals.makeAsyncIterator()
            #expect(await arrived.next() == "/slow")
            task.cancel()
            await expectFailure(.cancelled) { () async throws(DataLoadingError) in try await task.value.get() }
            let after = try await loader.load(DataRequest(url: URL(string: "\(base)/hello")!))
            #expect(after.statusCode == 200)
        }
    }

    @Test(arguments: LoaderKind.allCases)
    func cancellingMidBodyThrowsCancelledAndTheLoaderStillWorks(_ kind: LoaderKind) async throws {
        let loader = kind.make()
        try await OriginServer.with { base in
            let request = DataRequest(url: URL(string: "\(base)/huge")!, maxBodyBytes: 128 << 20)
            let chunks = ChunkCollector()
            let handle = Lock<Task<Result<DataResponse, DataLoadingError>, Never>?>(nil)
            // The first piece of the body cancels the task, so the transfer
            // is certainly under way and certainly not finished.
            let task = Task {
                await loader.result(request) { piece in
                    chunks.append(piece)
                    handle.withLock { $0 }?.cancel()
                }
            }
            handle.withLock { $0 = task }
            await expectFailure(.cancelled) { () async throws(DataLoadingError) in try await task.value.get() }
            #expect(chunks.data.count < OriginServer.hugeBody.count)
            let after = try await loader.load(DataRequest(url: URL(string: "\(base)/hello")!))
            #expect(after.body == Data("hello, loader".utf8))
        }
    }

    @Test(arguments: LoaderKind.allCases)
    func alreadyCancelledTaskThrowsCancelled(_ kind: LoaderKind) async throws {
        let loader = kind.make()
        try await OriginServer.with { base in
            let request = DataRequest(url: URL(string: "\(base)/hello")!)
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await loader.result(request)
            }
            await expectFailure(.cancelled) { () async throws(DataLoadingError) in try await task.value.get() }
        }
    }

    @Test(arguments: LoaderKind.allCases)
    func twoHundredConcurrentRequestsAreAllAnswered(_ kind: LoaderKind) async throws {
        let loader = kind.make()
        try await OriginServer.with { base in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let url = URL(string: "\(base)/hello?n=\(index)")!
                        // No deadline of its own: the suite's time limit is the bound. A fresh-clone CI
                        // run beside two other builds once took over 30 s to answer one of the 200.
                        let response = try await loader.load(DataRequest(url: url, timeout: .seconds(3_600)))
                        return response.body == Data("hello, loader".utf8) ? response.statusCode : -1
                    }
                }
                var statuses: [Int] = []
                for try await status in group { statuses.append(status) }
                return statuses
            }
            #expect(statuses.count == 200)
            #expect(statuses.allSatisfy { $0 == 200 })
        }
    }
}
