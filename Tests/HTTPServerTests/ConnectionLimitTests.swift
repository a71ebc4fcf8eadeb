import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing

extension LiveTests {
    /// Idle connections from one client, or from many, never lock the
    /// others out: one address holds at most its share, and when the server
    /// is near its limit idle connections are closed sooner.
    @Suite(.serialized, .timeLimit(.suiteBound)) struct ConnectionLimits {
        /// Opens `count` connections from `address` that send nothing; the
        /// server may close those beyond a limit at once.
        static func openIdle(_ count: Int, from address: String, port: Int) async throws -> [RawHTTPConnection] {
            try await blocking {
                try (0..<count).map { _ in try RawHTTPConnection(port: port, timeout: 60, sourceAddress: address) }
            }
        }

        static func answer(_ request: HTTPRequest) async -> HTTPResponse { .text(.ok, "ok") }

        /// A request from 127.0.0.1; returns its status and how long the
        /// answer took (reported, not asserted).
        static func probe(_ port: Int) async throws -> (status: Int, seconds: Double) {
            try await blocking {
                let started = Date()
                let connection = try RawHTTPConnection(port: port, timeout: 60, sourceAddress: "127.0.0.1")
                try connection.write("GET /probe HTTP/1.1\r\nHost: t\r\n\r\n")
                let status = try connection.readResponse().status
                return (status, Date().timeIntervalSince(started))
            }
        }

        @Test func oneAddressHoldingEverySlotItMayDoesNotLockOthersOut() async throws {
            try await withLiveServer(handle: Self.answer) { server, endpoint in
                let idle = try await Self.openIdle(1200, from: "127.0.0.2", port: endpoint.port)
                let probe = try await Self.probe(endpoint.port)
                #expect(probe.status == 200)
                let open = await server.openConnectionCount
                print("1,200 idle connections from 127.0.0.2: \(open) held; 127.0.0.1 answered in \(probe.seconds) s")
                #expect(open <= HTTPServer.Configuration.Limits().maxConnectionsPerClient! + 1)
                withExtendedLifetime(idle) {}
            }
        }

        @Test func idleConnectionsAreShedWhenTheServerIsFull() async throws {
            var configuration = HTTPServer.Configuration()
            configuration.limits.maxConnections = 40
            configuration.limits.maxConnectionsPerClient = nil
            try await withLiveServer(configuration: configuration, handle: Self.answer) {
                _, endpoint in
                let idle = try await Self.openIdle(40, from: "127.0.0.2", port: endpoint.port)
                let probe = try await Self.probe(endpoint.port)
                #expect(probe.status == 200)
                print("40 idle connections at a limit of 40: 127.0.0.1 answered in \(probe.seconds) s")
                withExtendedLifetime(idle) {}
            }
        }
    }
}
