import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import HTTPServer

extension LiveTests {
    /// ``BodyBytes`` handed to libmicrohttpd without a copy: the memory
    /// lives exactly as long as some response or holder needs it.
    @Suite struct SharedBodies {
        @Test func ownedBodyServedManyTimesArrivesIntactAndIsFreedOncePerResponse() async throws {
            let expected = patterned(2 << 20)
            let events = BodyEvents()
            // The test's only strong reference: dropped once the server has stopped.
            let holder = Lock<BodyBytes?>(BodyBytes(expected, observer: { events.record($0) }))
            let (connections, requestsEach) = (3, 8)
            try await withLiveServer(
                handle: { _ in
                    guard let bytes = holder.withLock({ $0 }) else { return .text(.notFound, "dropped") }
                    return .bytes(bytes, contentType: "application/octet-stream")
                },
                body: { _, endpoint in
                    let intact = try await sumOverConnections(connections, port: endpoint.port) { connection in
                        var intact = 0
                        for _ in 0..<requestsEach {
                            try connection.write("GET /body HTTP/1.1\r\nHost: t\r\n\r\n")
                            let response = try connection.readResponse()
                            if response.status == 200, response.body == expected { intact += 1 }
                        }
                        // HEAD sends no body, so its response never holds the bytes.
                        try connection.write("HEAD /body HTTP/1.1\r\nHost: t\r\n\r\n")
                        let head = try connection.readResponse(head: true)
                        return head.headers["Content-Length"] == String(expected.count) ? intact : -1
                    }
                    #expect(intact == connections * requestsEach, "every body arrived whole")
                    await events.waitForFreed(connections * requestsEach)
                })
            #expect(events.counts.freed == connections * requestsEach, "one free callback per body sent, no more")
            #expect(events.counts.deallocated == 0, "still held by the test")
            holder.withLock { $0 = nil }
            await events.waitForDeallocation()
            #expect(events.counts == (connections * requestsEach, 1))
        }

        @Test func sharedBodyStaysValidWhileOneResponseIsInFlight() async throws {
            // Far more than loopback buffers while the client does not read
            // (4 MiB of send buffer, a receive window that does not grow),
            // so the first response stays in flight until the client reads.
            let expected = patterned(16 << 20)
            let events = BodyEvents()
            let holder = Lock<BodyBytes?>(BodyBytes(expected, observer: { events.record($0) }))
            let stalledAnswered = Barrier(count: 2)
            let others = 3
            try await withLiveServer(
                handle: { request in
                    // Taken before the test may drop its reference: the response holds it from here.
                    guard let bytes = holder.withLock({ $0 }) else { return .text(.notFound, "dropped") }
                    if request.path == "/stalled" { await stalledAnswered.arrive() }
                    return .bytes(bytes, contentType: "application/octet-stream")
                },
                body: { _, endpoint in
                    let stalled = try RawHTTPConnection(port: endpoint.port)
                    try stalled.write("GET /stalled HTTP/1.1\r\nHost: t\r\n\r\n")
                    await stalledAnswered.arrive()
                    let intact = try await sumOverConnections(others, port: endpoint.port) { connection in
                        try connection.write("GET /other HTTP/1.1\r\nHost: t\r\n\r\n")
                        return try connection.readResponse().body == expected ? 1 : 0
                    }
                    #expect(intact == others)
                    await events.waitForFreed(others)
                    // Only the stalled response holds the bytes now.
                    holder.withLock { $0 = nil }
                    #expect(events.counts == (others, 0), "the response in flight keeps the bytes alive")
                    let late = try await blocking { try stalled.readResponse() }
                    #expect(late.status == 200)
                    #expect(late.body == expected, "intact after its last other holder let go")
                    stalled.hangUp()
                    await events.waitForDeallocation()
                    #expect(events.counts == (others + 1, 1))
                })
        }

        @Test func emptyOwnedBodyIsServed() async throws {
            try await withLiveServer(
                handle: { _ in .bytes(BodyBytes(Data()), contentType: "application/octet-stream") },
                body: { _, endpoint in
                    let response = try await blocking {
                        let connection = try RawHTTPConnection(port: endpoint.port)
                        try connection.write("GET /empty HTTP/1.1\r\nHost: t\r\n\r\n")
                        return try connection.readResponse()
                    }
                    #expect(response.status == 200)
                    #expect(response.headers["Content-Length"] == "0")
                    #expect(response.body.isEmpty)
                })
        }
    }
}

@Suite(.timeLimit(.suiteBound)) struct BodyBytesTests {
    @Test func copiesOnceAndComparesByContent() {
        var source = patterned(4096)
        let bytes = BodyBytes(source)
        source[0] ^= 0xFF
        #expect(bytes.count == 4096)
        #expect(bytes.data == patterned(4096), "a copy, not a view of the caller's Data")
        #expect(bytes == BodyBytes(patterned(4096)))
        #expect(bytes != BodyBytes(source))
        #expect(BodyBytes(Data()).isEmpty)
        #expect(HTTPResponse.bytes(bytes, contentType: "a/b").body == .bytes(BodyBytes(patterned(4096))))
    }
}
