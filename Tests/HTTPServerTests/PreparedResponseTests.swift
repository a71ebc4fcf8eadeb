import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import HTTPServer

/// Answers every request at once with the prepared response it holds, while
/// it holds one.
private struct PreparedHandler: HTTPHandler {
    let holder: Lock<PreparedResponse?>
    let events: BodyEvents

    func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
        guard let prepared = holder.withLock({ $0 }) else { return .text(.notFound, "evicted") }
        events.answered()
        return .prepared(prepared)
    }

    func handle(_ request: HTTPRequest) async -> HTTPResponse { .text(.internalServerError, "not immediate") }
}

extension LiveTests {
    /// ``PreparedResponse``: one libmicrohttpd response queued for many
    /// requests, owned by whoever keeps it, alive while any connection sends it.
    @Suite struct PreparedResponses {
        @Test func oneBuiltResponseServesManyRequestsAndIsFreedOnceAfterItsOwnerLetsGo() async throws {
            let expected = patterned(300_000)
            let events = BodyEvents()
            // Made inside the holder, the one owner: a local `let` would keep
            // a reference of its own to the end of the scope (debug builds do
            // not end a lifetime early), so dropping the holder's would free
            // nothing and the wait for deallocation below would never end.
            let holder = Lock<PreparedResponse?>(
                PreparedResponse(
                    .bytes(
                        BodyBytes(expected, observer: { events.record($0) }), contentType: "image/webp",
                        headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=60"])))
            #expect(holder.withLock { $0?.isBuilt } == true)
            let (connections, requestsEach) = (3, 10)
            try await withLiveServer(handler: PreparedHandler(holder: holder, events: events)) { _, endpoint in
                let intact = try await sumOverConnections(connections, port: endpoint.port) { connection in
                    var intact = 0
                    for index in 0..<requestsEach {
                        try connection.write("GET /p/\(index) HTTP/1.1\r\nHost: t\r\n\r\n")
                        let response = try connection.readResponse()
                        if response.status == 200, response.body == expected,
                            response.headers["ETag"] == "\"v1\"",
                            response.headers["Content-Type"] == "image/webp",
                            response.headers["Date"] != nil
                        {
                            intact += 1
                        }
                    }
                    try connection.write("HEAD /p HTTP/1.1\r\nHost: t\r\n\r\n")
                    let head = try connection.readResponse(head: true)
                    let headRight = head.status == 200 && head.headers["Content-Length"] == String(expected.count)
                    // The connection still works after HEAD: no body was sent for it.
                    try connection.write("GET /p/last HTTP/1.1\r\nHost: t\r\n\r\n")
                    let last = try connection.readResponse()
                    return headRight && last.body == expected ? intact + 1 : -1
                }
                #expect(intact == connections * (requestsEach + 1), "every answer arrived whole")
            }
            // The owner's reference kept the one response alive through every request.
            #expect(events.counts == (0, 0))
            holder.withLock { $0 = nil }
            await events.waitForDeallocation()
            #expect(events.counts == (1, 1), "one libmicrohttpd response for every request, freed once")
        }

        /// Many connections on libmicrohttpd's thread pool, each answer
        /// evicted before it is queued: every answer arrives whole, and once
        /// the last owner lets go every response and body is freed, once.
        @Test func answersEvictedBeforeTheyAreQueuedArriveWholeAndAreFreedOnce() async throws {
            let expected = patterned(200_000)
            let events = BodyEvents()
            let holder = Lock<PreparedResponse?>(nil)
            let handler = EvictingHandler(body: expected, holder: holder, events: events)
            holder.withLock { $0 = handler.makePrepared() }
            var configuration = HTTPServer.Configuration()
            configuration.threadPoolSize = 4
            let (connections, requestsEach) = (6, 15)
            try await withLiveServer(configuration: configuration, handler: handler) { _, endpoint in
                let intact = try await sumOverConnections(connections, port: endpoint.port) { connection in
                    var intact = 0
                    for index in 0..<requestsEach {
                        let method = index % 5 == 4 ? "HEAD" : "GET"
                        try connection.write("\(method) /e/\(index) HTTP/1.1\r\nHost: t\r\n\r\n")
                        let response = try connection.readResponse(head: method == "HEAD")
                        let bodyRight = method == "HEAD" ? response.body.isEmpty : response.body == expected
                        if response.status == 200, bodyRight,
                            response.headers["Content-Length"] == String(expected.count)
                        {
                            intact += 1
                        }
                    }
                    return intact
                }
                #expect(intact == connections * requestsEach, "every answer arrived whole")
            }
            holder.withLock { $0 = nil }
            let made = handler.made.withLock { $0 }
            #expect(made == connections * requestsEach + 1)
            await events.waitForFreed(made)
            await events.waitForDeallocations(made)
            #expect(events.counts == (made, made), "each response freed once, each body once")
        }

        @Test func evictedWhileInFlightTheResponseIsSentWholeThenFreed() async throws {
            // Far more than loopback buffers while the client does not read,
            // so the response stays in flight until the client reads.
            let expected = patterned(16 << 20)
            let events = BodyEvents()
            let holder = Lock<PreparedResponse?>(
                PreparedResponse(
                    .bytes(BodyBytes(expected, observer: { events.record($0) }), contentType: "image/webp")))
            try await withLiveServer(handler: PreparedHandler(holder: holder, events: events)) { _, endpoint in
                let stalled = try RawHTTPConnection(port: endpoint.port)
                try stalled.write("GET /stalled HTTP/1.1\r\nHost: t\r\n\r\n")
                await events.waitForAnswers(1)
                // Evicted: the cache's reference goes while the response is queued or in flight.
                holder.withLock { $0 = nil }
                #expect(events.counts == (0, 0), "the connection sending it keeps it alive")
                let late = try await blocking { try stalled.readResponse() }
                #expect(late.status == 200)
                #expect(late.body == expected, "intact after its owner let go")
                stalled.hangUp()
                await events.waitForDeallocation()
                #expect(events.counts == (1, 1))
            }
        }
    }
}

/// Evicts as it answers: hands out the prepared response it holds and puts
/// a new one in its place first, so the response queued for a request has
/// no owner left but the request itself by the time libmicrohttpd sends it.
private struct EvictingHandler: HTTPHandler {
    let body: Data
    let holder: Lock<PreparedResponse?>
    let events: BodyEvents
    let made = Lock(0)

    func makePrepared() -> PreparedResponse {
        let version = made.withLock { made in
            made += 1
            return made
        }
        return PreparedResponse(
            .bytes(
                BodyBytes(body, observer: { events.record($0) }), contentType: "image/webp",
                headers: ["ETag": "\"v\(version)\""]))
    }

    func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
        let replacement = makePrepared()
        guard
            let current = holder.withLock({ holder in
                defer { holder = replacement }
                return holder
            })
        else {
            return .text(.notFound, "none")
        }
        return .prepared(current)
    }

    func handle(_ request: HTTPRequest) async -> HTTPResponse { .text(.internalServerError, "not immediate") }
}

@Suite(.timeLimit(.suiteBound)) struct PreparedResponseTests {
    @Test func changingAPreparedResponseDropsThePreparation() {
        let prepared = PreparedResponse(.text(.ok, "hi"))
        var response = HTTPResponse.prepared(prepared)
        #expect(response.prepared === prepared)
        #expect(response == prepared.response)
        response.headers["Via"] = "1.1 x"
        #expect(response.prepared == nil, "a changed response is built per request again")
        var status = HTTPResponse.prepared(prepared)
        status.status = .notFound
        #expect(status.prepared == nil)
        var body = HTTPResponse.prepared(prepared)
        body.body = .empty
        #expect(body.prepared == nil)
    }

    @Test func fileBodiesAndRefusedFieldsAreBuiltPerRequest() {
        #expect(!PreparedResponse(.file(path: "/etc/hostname", contentType: "text/plain")).isBuilt)
        #expect(!PreparedResponse(.text(.ok, "x", headers: ["Bad\r\nName": "v"])).isBuilt)
        #expect(PreparedResponse(HTTPResponse(status: .noContent)).isBuilt)
    }
}
