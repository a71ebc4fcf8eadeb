import Foundation
import HTTPServer
import TestSupport
import Testing
import WebPBridge

extension LiveTests {
    @Suite struct Lifecycle {
        @Test func shutdownWaitsForAnInFlightRequest() async throws {
            let started = AsyncStream<Void>.makeStream()
            let serverBox = Lock<HTTPServer?>(nil)
            let server = HTTPServer { _ in
                started.continuation.yield()
                // Still running when shutdown begins: it finishes only once draining has.
                await serverBox.withLock { $0 }?.waitUntilDraining()
                return .text(.ok, "finished")
            }
            serverBox.withLock { $0 = server }
            // The handler reaches the server through the box: emptied, so the two do not keep each other alive.
            defer { serverBox.withLock { $0 = nil } }
            let endpoint = try await server.start()
            let request = Task { try await fetch(endpoint.url + "/slow") }
            var iterator = started.stream.makeAsyncIterator()
            await iterator.next()
            await server.shutdown()
            let response = try await request.value
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "finished\n")
            // The listening socket is gone.
            await #expect(throws: (any Error).self) {
                try await blocking { _ = try RawHTTPConnection(port: endpoint.port, timeout: 1) }
            }
        }

        /// Once shutdown begins, a new connection is closed as it is
        /// accepted, with nothing read from it or sent on it, while the
        /// request in flight still finishes.
        @Test func aConnectionOpenedWhileDrainingIsClosedUnanswered() async throws {
            let events = AsyncStream<String>.makeStream()
            let release = AsyncStream<Void>.makeStream()
            let serverBox = Lock<HTTPServer?>(nil)
            let server = HTTPServer { _ in
                events.continuation.yield("started")
                await serverBox.withLock { $0 }?.waitUntilDraining()
                events.continuation.yield("draining")
                for await _ in release.stream {}
                return .text(.ok, "finished")
            }
            serverBox.withLock { $0 = server }
            defer { serverBox.withLock { $0 = nil } }
            let endpoint = try await server.start()
            let request = Task { try await fetch(endpoint.url + "/slow") }
            var iterator = events.stream.makeAsyncIterator()
            #expect(await iterator.next() == "started")
            let stopping = Task { await server.shutdown() }
            #expect(await iterator.next() == "draining")
            let late = try await blocking { () throws -> (closed: Bool, answer: Int) in
                let connection = try RawHTTPConnection(port: endpoint.port)
                // Sent before or after the close: either way nothing answers it.
                try? connection.write("GET /late HTTP/1.1\r\nHost: t\r\n\r\n")
                return (connection.waitForClose(), connection.bufferedByteCount)
            }
            #expect(late.closed && late.answer == 0, "\(late)")
            release.continuation.finish()
            await stopping.value
            #expect(try await request.value.status == 200)
        }

        @Test func handlersPastTheGracePeriodAreAnswered503() async throws {
            var configuration = HTTPServer.Configuration()
            configuration.shutdownGracePeriod = .milliseconds(200)
            let started = AsyncStream<Void>.makeStream()
            let release = AsyncStream<Void>.makeStream()
            let server = HTTPServer(configuration: configuration) { _ in
                started.continuation.yield()
                // A handler stuck past the grace period, until the test releases it (or it is cancelled).
                for await _ in release.stream {}
                return .text(.ok, "too late")
            }
            defer { release.continuation.finish() }
            let endpoint = try await server.start()
            let request = Task { try await fetch(endpoint.url + "/stuck") }
            var iterator = started.stream.makeAsyncIterator()
            await iterator.next()
            await server.shutdown()
            #expect(try await request.value.status == 503)
        }

        @Test func aClientThatHangsUpCancelsItsHandler() async throws {
            let events = AsyncStream<String>.makeStream()
            try await withLiveServer(
                handle: { request in
                    guard request.path == "/slow" else { return .text(.ok, "at once") }
                    events.continuation.yield("started \(request.path)")
                    // A handler that waits until it is cancelled: a stream nobody yields to ends then.
                    let (never, held) = AsyncStream<Void>.makeStream()
                    defer { held.finish() }
                    for await _ in never {}
                    events.continuation.yield(Task.isCancelled ? "cancelled" : "finished")
                    return .text(.ok, "nobody is listening")
                },
                body: { _, endpoint in
                    var seen = events.stream.makeAsyncIterator()
                    let connection = try await blocking { try RawHTTPConnection(port: endpoint.port) }
                    try connection.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
                    #expect(await seen.next() == "started /slow")
                    connection.hangUp()
                    // The watchdog notices the closed socket within a sweep or two; the
                    // stream's next event is the handler's, whichever it is.
                    #expect(await seen.next() == "cancelled")

                    // A client that waits is still answered.
                    let patient = try await fetch(endpoint.url + "/patient")
                    #expect(patient.status == 200)
                })
        }

        @Test func shutdownTwiceAndConcurrentlyIsSafe() async throws {
            let server = HTTPServer { _ in .text(.ok, "x") }
            let endpoint = try await server.start()
            // An idle keep-alive connection, which shutting down must close.
            let idle = try await blocking { try RawHTTPConnection(port: endpoint.port, timeout: 10) }
            await server.waitUntilOpenConnections { $0 == 1 }
            #expect(await server.openConnectionCount == 1)
            async let first: Void = server.shutdown()
            async let second: Void = server.shutdown()
            _ = await (first, second)
            await server.shutdown()
            #expect(try await blocking { idle.waitForClose() }, "the idle connection was closed by the server")
            #expect(await server.openConnectionCount == 0)
            await #expect(throws: HTTPServerError.self) { try await server.start() }
        }

        @Test func shutdownBeforeStartIsSafe() async {
            let server = HTTPServer { _ in .text(.ok, "x") }
            await server.shutdown()
            await server.shutdown()
            // A server shut down before it started stays stopped: it never listens.
            #expect(await server.endpoint == nil)
            let error = await #expect(throws: HTTPServerError.self) { try await server.start() }
            #expect(error?.kind == .stopped)
            #expect(await server.endpoint == nil)
        }

        @Test func portInUseIsReportedClearly() async throws {
            try await withLiveServer(
                handle: { _ in .text(.ok, "x") },
                body: { _, endpoint in
                    let second = HTTPServer(configuration: .init(host: "127.0.0.1", port: endpoint.port)) { _ in
                        .text(.ok, "y")
                    }
                    do throws(HTTPServerError) {
                        try await second.start()
                        Issue.record("a second server started on port \(endpoint.port)")
                        await second.shutdown()
                    } catch {
                        #expect(error.kind == .addressInUse)
                        #expect(error.description.contains("already in use"))
                        #expect(error.description.contains("\(endpoint.port)"))
                    }
                })
        }

        @Test(arguments: [
            ("localhost", HTTPServerError.Kind.invalidAddress),
            ("300.1.1.1", .invalidAddress),
            ("192.0.2.1", .addressNotAvailable),
        ])
        func badAddressesAreReportedClearly(host: String, kind: HTTPServerError.Kind) async {
            let server = HTTPServer(configuration: .init(host: host, port: 0)) { _ in .text(.ok, "x") }
            do {
                try await server.start()
                Issue.record("started on \(host)")
                await server.shutdown()
            } catch {
                #expect(error.kind == kind)
                #expect(error.description.contains(host))
            }
        }

        @Test func startTwiceFails() async throws {
            try await withLiveServer(
                handle: { _ in .text(.ok, "x") },
                body: { server, endpoint in
                    do throws(HTTPServerError) {
                        try await server.start()
                        Issue.record("started twice")
                    } catch {
                        #expect(error.kind == .alreadyStarted)
                    }
                    #expect(await server.endpoint == endpoint)
                    #expect(endpoint.port > 0)
                })
        }
    }
}
