public import Foundation
import WebPBridge

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A byte-exact upstream for tests of what a client (the bridge's loader)
/// writes and how it reads what it gets back: listens on 127.0.0.1, port 0,
/// records every request head exactly as received, and answers each
/// connection with the same raw bytes, then closes it.
///
/// `Sendable`: the accept thread and the test share only `state`, behind its lock.
public final class RawHTTPListener: Sendable {
    private struct State {
        var heads: [Data] = []
        var stopped = false
    }

    /// The bound port.
    public let port: Int
    private let listener: Int32
    private let answer: Data
    private let state = Lock(State())

    /// Starts listening and answering.
    /// - Parameter answer: The text sent back on every connection, e.g.
    ///   `"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"`.
    /// - Throws: ``RawHTTPConnection/Failure`` when the socket cannot listen.
    public convenience init(answer: String) throws { try self.init(answerBytes: Data(answer.utf8)) }

    /// Starts listening and answering with bytes that need not be UTF-8.
    /// - Parameter answerBytes: The bytes sent back on every connection.
    /// - Throws: ``RawHTTPConnection/Failure`` when the socket cannot listen.
    public init(answerBytes: Data) throws {
        self.answer = answerBytes
        (listener, port) = try LoopbackSocket.listening()
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// `http://127.0.0.1:PORT` with `target` appended.
    public func url(_ target: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(target)")! }

    /// Every request head received (request line and fields, up to and
    /// including the empty line), in order.
    public var heads: [Data] { state.withLock { $0.heads } }

    /// Stops accepting; the accept thread ends at its next wake-up.
    public func stop() {
        state.withLock { $0.stopped = true }
        _ = shutdown(listener, Int32(SHUT_RDWR))
    }

    deinit { close(listener) }

    private func acceptLoop() {
        while !state.withLock({ $0.stopped }) {
            let client = accept(listener, nil, nil)
            if client < 0, errno == EINTR || errno == ECONNABORTED { continue }
            guard client >= 0 else { return }
            var time = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
            let head = readHead(client)
            state.withLock { $0.heads.append(head) }
            answer.withUnsafeBytes { _ = send(client, $0.baseAddress, $0.count, LoopbackSocket.sendFlags) }
            _ = shutdown(client, Int32(SHUT_WR))
            close(client)
        }
    }

    private func readHead(_ client: Int32) -> Data {
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while received.range(of: Data("\r\n\r\n".utf8)) == nil, received.count < 1 << 20 {
            let count = recv(client, &chunk, chunk.count, 0)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            received.append(contentsOf: chunk[0..<count])
        }
        return received
    }
}
