#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The socket calls the raw HTTP client and upstream share, so both build
/// with Glibc and with Darwin.
public enum LoopbackSocket {
    /// A socket listening on 127.0.0.1 at a port the system chose, and that
    /// port.
    /// - Throws: ``RawHTTPConnection/Failure`` when the socket cannot listen.
    public static func listening() throws -> (descriptor: Int32, port: Int) {
        let listener = make()
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, $0, &length) == 0
            }
        }
        guard listener >= 0, ready else {
            if listener >= 0 { close(listener) }
            throw RawHTTPConnection.Failure(description: "listen: \(String(cString: strerror(errno)))")
        }
        return (listener, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A new IPv4 TCP socket (-1 on failure). On Darwin it never raises
    /// SIGPIPE (`SO_NOSIGPIPE`); on Linux ``sendFlags`` says so per call.
    static func make() -> Int32 {
        #if canImport(Glibc)
            return socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
            var on: Int32 = 1
            if descriptor >= 0 {
                setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            }
            return descriptor
        #endif
    }

    /// The `send` flags: `MSG_NOSIGNAL` where it exists, so writing to a
    /// peer that closed gives an error instead of killing the test process.
    static var sendFlags: Int32 {
        #if canImport(Glibc)
            return Int32(MSG_NOSIGNAL)
        #else
            return 0
        #endif
    }
}
