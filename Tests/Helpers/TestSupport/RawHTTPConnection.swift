public import Foundation
public import WebPBridge

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking TCP client for byte-exact HTTP tests (keep-alive, malformed
/// requests, slow and truncated clients), shared by every test target that
/// speaks raw bytes to a server. Every read and write times out, so a test
/// never hangs; call it off Swift's cooperative pool (a Dispatch thread),
/// which runs the server's handlers.
///
/// `@unchecked Sendable` so a test can open connections on one thread and
/// keep them alive on another; each is used by one thread at a time.
public final class RawHTTPConnection: @unchecked Sendable {
    /// A socket call failed or the server closed too early.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed.
        public var description: String
    }

    /// One response as read off the wire.
    public struct Response: Sendable {
        /// The status code.
        public var status: Int
        /// The header fields, in order, value bytes as sent.
        public var headers: HTTPFieldList
        /// The body (as framed by `Content-Length`, else up to the close).
        public var body: Data
    }

    /// The client socket.
    public let descriptor: Int32
    private var buffered = Data()

    /// Connects to `127.0.0.1:port`.
    /// - Parameters:
    ///   - port: The server's port.
    ///   - timeout: Every read and write gives up after this long.
    ///   - sourceAddress: The local IPv4 address to bind first (any
    ///     127.0.0.0/8 address), so a test can be a different client.
    /// - Throws: ``Failure`` when the socket cannot connect.
    public init(port: Int, timeout: TimeInterval = 30, sourceAddress: String? = nil) throws {
        // The socket is closed here on failure and only kept once connected:
        // a class whose initializer throws after every stored property is set
        // runs its `deinit`, and closing twice would close whatever socket
        // another thread opened under the same number in between.
        descriptor = try Self.connectedSocket(port: port, timeout: timeout, sourceAddress: sourceAddress)
    }

    private static func connectedSocket(port: Int, timeout: TimeInterval, sourceAddress: String?) throws -> Int32 {
        let descriptor = LoopbackSocket.make()
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        func fail(_ what: String) -> Failure {
            let message = String(cString: strerror(errno))
            close(descriptor)
            return Failure(description: "\(what): \(message)")
        }
        var time = timeval(tv_sec: Int(timeout), tv_usec: .init((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        if let sourceAddress {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(sourceAddress)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw fail("bind \(sourceAddress)") }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw fail("connect") }
        return descriptor
    }

    deinit { close(descriptor) }

    /// Closes both directions now, as a client that gives up does (the
    /// server reads end of stream).
    public func hangUp() { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }

    /// Closes the sending direction only (a half-close): the server reads
    /// end of stream, and the connection can still receive.
    public func finishSending() { _ = shutdown(descriptor, Int32(SHUT_WR)) }

    /// Sends all bytes; never SIGPIPE (``LoopbackSocket``), so a server that closed gives an
    /// error instead of killing the test process with SIGPIPE.
    public func write(_ bytes: Data) throws {
        var sent = 0
        while sent < bytes.count {
            // The loop runs for non-empty bytes only, which have an address.
            let result = bytes.withUnsafeBytes { raw in
                raw.baseAddress.map { send(descriptor, $0 + sent, bytes.count - sent, LoopbackSocket.sendFlags) } ?? 0
            }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            sent += result
        }
    }

    /// Sends the text's UTF-8 bytes.
    public func write(_ text: String) throws { try write(Data(text.utf8)) }

    /// Reads one response; for `HEAD` (or 204/304) it reads no body.
    public func readResponse(head: Bool = false) throws -> Response {
        let separator = Data("\r\n\r\n".utf8)
        while buffered.range(of: separator) == nil {
            guard try fill() else { throw Failure(description: "connection closed before a response head") }
        }
        let end = buffered.range(of: separator)!
        let headBytes = Data(buffered[buffered.startIndex..<end.lowerBound])
        let headText = String(decoding: headBytes, as: UTF8.self)
        buffered = Data(buffered[end.upperBound...])
        // Lines as bytes: a field's value is kept as sent, UTF-8 or not.
        var lines = [headBytes]
        while let lineEnd = lines[lines.count - 1].range(of: Data("\r\n".utf8)) {
            let rest = lines[lines.count - 1]
            lines[lines.count - 1] = Data(rest[rest.startIndex..<lineEnd.lowerBound])
            lines.append(Data(rest[lineEnd.upperBound...]))
        }
        let statusLine = String(decoding: lines.removeFirst(), as: UTF8.self).split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line in \(headText)")
        }
        var headers = HTTPFieldList()
        for line in lines {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            var value = line[line.index(after: colon)...]
            while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            headers.add(
                HTTPFieldList.Field(name: String(decoding: line[..<colon], as: UTF8.self), valueBytes: value))
        }
        var response = Response(status: status, headers: headers, body: Data())
        if head || status == 204 || status == 304 { return response }
        if let length = response.headers["Content-Length"].flatMap(Int.init) {
            while buffered.count < length {
                guard try fill() else { throw Failure(description: "connection closed inside a body") }
            }
            response.body = Data(buffered.prefix(length))
            buffered = Data(buffered.dropFirst(length))
        } else {
            while try fill() {}
            response.body = buffered
            buffered = Data()
        }
        return response
    }

    /// Bytes received and not yet read as a response.
    public var bufferedByteCount: Int { buffered.count }

    /// Reads until the server closes (true) or the read times out (false).
    public func waitForClose() -> Bool {
        do {
            while try fill() {}
            return true
        } catch {
            return false
        }
    }

    /// Reads more bytes; false at end of stream; throws on timeout or error.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var count: Int
        // A socket with a timeout is never restarted after a signal (signal(7)).
        repeat { count = recv(descriptor, &chunk, chunk.count, 0) } while count < 0 && errno == EINTR
        if count > 0 {
            buffered.append(contentsOf: chunk[0..<count])
            return true
        }
        if count == 0 { return false }
        if errno == ECONNRESET { return false }
        throw Failure(description: "recv: \(String(cString: strerror(errno)))")
    }
}
