import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking TCP client on 127.0.0.1 for one exchange: send, close the
/// sending side, read until the server closes. Every read and write times out.
enum LoopbackClient {
    /// Why an exchange failed.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends `bytes` to `port`, half-closes, and returns everything the
    /// server sends until it closes the connection.
    ///
    /// - Throws: ``Failure`` when the connection cannot be made, or the server
    ///   neither answers nor closes within `timeoutSeconds` of the last byte.
    static func exchange(_ bytes: Data, port: Int, timeoutSeconds: Int) throws -> Data {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw failure("socket") }
        defer { close(descriptor) }
        var time = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw failure("connect") }
        // A server may answer and close before reading everything (a 400 at
        // the first bad byte); a failed send is then not a finding.
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            guard result > 0 else { break }
            sent += result
        }
        _ = shutdown(descriptor, Int32(SHUT_WR))
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var answered = false
        while true {
            // Acknowledge at once: a delayed ACK would hold a server's second
            // segment back by 40 ms, the cost of most exchanges.
            quickAcknowledge(descriptor)
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count > 0 {
                received.append(contentsOf: chunk[0..<count])
                if !answered, received.firstRange(of: Data("\r\n\r\n".utf8)) != nil {
                    // Answered: a kept-alive connection the server leaves open
                    // after the client half-closed (it waits for its idle
                    // timeout) ends the exchange after a short silence.
                    answered = true
                    var silence = timeval(tv_sec: 0, tv_usec: 50_000)
                    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &silence, socklen_t(MemoryLayout<timeval>.size))
                }
            } else if count == 0 || errno == ECONNRESET || (answered && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                return received
            } else if errno != EINTR {
                throw failure("recv after \(received.count) bytes")
            }
        }
    }

    private static func quickAcknowledge(_ descriptor: Int32) {
        #if canImport(Glibc)
            var on: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_QUICKACK, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    private static func failure(_ call: String) -> Failure {
        Failure(description: "\(call): \(String(cString: strerror(errno)))")
    }
}
