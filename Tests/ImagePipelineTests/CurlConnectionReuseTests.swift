import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

#if canImport(Glibc)
    import Glibc
#endif

/// A kept-alive connection to which the upstream wrote between answers is
/// not used again: those bytes would be read as the next request's answer,
/// and each later answer on the connection would go to the request before
/// it (an adversarial review had one client's answer, cookies and all,
/// reach another through the proxy, and a stray image cached under another
/// URL). libcurl 8 refuses such a connection; Debian 12's 7.88 does not.
@Suite(.timeLimit(.suiteBound))
struct CurlConnectionReuseTests {
    /// An upstream that keeps connections alive and answers each request
    /// with its target's name as the body; the test can write more bytes on
    /// the last connection whenever it likes.
    final class KeepAliveUpstream: Sendable {
        private struct State {
            var connections: [Int32] = []
            var stopped = false
        }

        let port: Int
        private let listener: Int32
        private let state = Lock(State())
        private let extra: @Sendable (String) -> Data

        /// - Parameter extra: Bytes written right after the answer to a
        ///   target (none by default).
        init(extra: @escaping @Sendable (String) -> Data = { _ in Data() }) throws {
            self.extra = extra
            (listener, port) = try LoopbackSocket.listening()
            Thread { [self] in acceptLoop() }.start()
        }

        func url(_ target: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(target)")! }

        /// Connections accepted so far.
        var connectionCount: Int { state.withLock { $0.connections.count } }

        /// Writes `bytes` on the last connection accepted, unasked.
        func writeOnLastConnection(_ bytes: String) {
            guard let socket = state.withLock({ $0.connections.last }) else { return }
            _ = Array(bytes.utf8).withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        func stop() {
            let sockets = state.withLock { state in
                state.stopped = true
                return state.connections
            }
            for socket in sockets { _ = shutdown(socket, Int32(SHUT_RDWR)) }
            _ = shutdown(listener, Int32(SHUT_RDWR))
        }

        deinit {
            close(listener)
            for socket in state.withLock({ $0.connections }) { close(socket) }
        }

        private func acceptLoop() {
            while !state.withLock({ $0.stopped }) {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                state.withLock { $0.connections.append(client) }
                Thread { [self] in serve(client) }.start()
            }
        }

        /// Answers each request head on `client`; bodies are not expected.
        private func serve(_ client: Int32) {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(client, &buffer, buffer.count, 0)
                guard count > 0 else { return }
                received += buffer[0..<count]
                while let end = received.firstRange(of: Array("\r\n\r\n".utf8)) {
                    let head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
                    received.removeSubrange(..<end.upperBound)
                    let requestLine = head.split(separator: "\r\n").first ?? ""
                    let parts = requestLine.split(separator: " ")
                    let target = parts.count > 1 ? String(parts[1]) : "/"
                    let name = String(target.dropFirst())
                    var answer = Data("HTTP/1.1 200 OK\r\nContent-Length: \(name.utf8.count)\r\n\r\n".utf8)
                    if parts.first != "HEAD" { answer += Data(name.utf8) }
                    answer += extra(target)
                    _ = answer.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
            }
        }
    }

    @Test func aConnectionTheUpstreamWroteToWhileIdleIsNotReused() async throws {
        let upstream = try KeepAliveUpstream()
        defer { upstream.stop() }
        let loader = CurlDataLoader()
        let first = try await loader.load(DataRequest(url: upstream.url("/first")))
        #expect(String(decoding: first.body, as: UTF8.self) == "first")
        upstream.writeOnLastConnection("HTTP/1.1 200 OK\r\nContent-Length: 6\r\nSet-Cookie: a=b\r\n\r\nstray!")
        let second = try await loader.load(DataRequest(url: upstream.url("/second")))
        #expect(String(decoding: second.body, as: UTF8.self) == "second")
        #expect(second.headers["set-cookie"] == nil)
        #expect(upstream.connectionCount == 2, "a new connection for the second request")
        let third = try await loader.load(DataRequest(url: upstream.url("/third")))
        #expect(String(decoding: third.body, as: UTF8.self) == "third")
        #expect(upstream.connectionCount == 2, "the clean connection is reused")
    }

    /// A request's ``BodyAdmission`` is asked before each piece is kept,
    /// and the first piece it refuses stops the transfer.
    @Test func aBodyTheAdmissionRefusesStopsTheTransfer() async throws {
        let upstream = try KeepAliveUpstream()
        defer { upstream.stop() }
        let admitted = Lock(0)
        let name = String(repeating: "x", count: 300)
        let allowing = BodyAdmission { count in
            admitted.withLock { $0 += count }
            return true
        }
        let whole = try await CurlDataLoader().load(DataRequest(url: upstream.url("/" + name), bodyAdmission: allowing))
        #expect(whole.body.count == 300 && admitted.withLock { $0 } == 300)
        let refusing = BodyAdmission { _ in false }
        await #expect(throws: DataLoadingError.self) {
            try await CurlDataLoader().load(DataRequest(url: upstream.url("/" + name), bodyAdmission: refusing))
        }
    }

    @Test func aCleanConnectionIsReused() async throws {
        let upstream = try KeepAliveUpstream()
        defer { upstream.stop() }
        let loader = CurlDataLoader()
        for name in ["a", "b", "c"] {
            let response = try await loader.load(DataRequest(url: upstream.url("/\(name)")))
            #expect(String(decoding: response.body, as: UTF8.self) == name)
        }
        #expect(upstream.connectionCount == 1)
    }

    /// A body after a HEAD's head may come after the next request's check:
    /// the connection of a HEAD is never kept.
    @Test func aHeadsConnectionIsNotKept() async throws {
        let upstream = try KeepAliveUpstream { target in
            target == "/head" ? Data("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nstray!".utf8) : Data()
        }
        defer { upstream.stop() }
        let loader = CurlDataLoader()
        let head = try await loader.load(DataRequest(url: upstream.url("/head"), method: "HEAD"))
        #expect(head.statusCode == 200 && head.body.isEmpty)
        let next = try await loader.load(DataRequest(url: upstream.url("/next")))
        #expect(String(decoding: next.body, as: UTF8.self) == "next")
        #expect(upstream.connectionCount == 2)
    }
}
