#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The socket calls the raw HTTP client and upstream share, so both build
/// with Glibc and with Darwin.
enum LoopbackSocket {
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
