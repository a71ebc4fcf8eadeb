internal import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A numeric IPv4 or IPv6 socket address, parsed once and handed to
/// libmicrohttpd as a `sockaddr`.
struct SocketAddress: Sendable {
    private var storage = sockaddr_storage()

    /// Whether this is an IPv6 address (libmicrohttpd needs `MHD_USE_IPv6`).
    private(set) var isIPv6 = false

    /// Parses a numeric host (`127.0.0.1`, `::1`, `[::1]`) and a port;
    /// `nil` when the host is not a numeric address.
    init?(host: String, port: UInt16) {
        var host = host
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        if inet_pton(AF_INET, host, &ipv4) == 1 {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr = ipv4
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in.self) }
        } else if inet_pton(AF_INET6, host, &ipv6) == 1 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = ipv6
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in6.self) }
            isIPv6 = true
        } else {
            return nil
        }
    }

    /// Calls `body` with a `sockaddr` pointer valid for the call only.
    func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>) throws -> Result) rethrows -> Result {
        try withUnsafePointer(to: storage) { storage in
            try storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0) }
        }
    }

    /// The `errno` of binding a fresh TCP socket to this address, or 0 when
    /// the bind succeeds; tells why libmicrohttpd could not bind.
    func bindError() -> Int32 {
        #if canImport(Glibc)
            let stream = Int32(SOCK_STREAM.rawValue)
        #else
            let stream = SOCK_STREAM
        #endif
        let probe = socket(isIPv6 ? AF_INET6 : AF_INET, stream, 0)
        guard probe >= 0 else { return errno }
        defer { close(probe) }
        var reuse: Int32 = 1
        _ = setsockopt(probe, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        let length = socklen_t(isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        return withSockAddr { bind(probe, $0, length) } == 0 ? 0 : errno
    }

    /// The numeric text of an address libmicrohttpd gives (`127.0.0.1`,
    /// `::1`), or `nil` for another family.
    static func text(of address: UnsafePointer<sockaddr>) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                var raw = ipv4.pointee.sin_addr
                return inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count)).map { String(cString: $0) }
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                var raw = ipv6.pointee.sin6_addr
                return inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count)).map { String(cString: $0) }
            }
        default:
            return nil
        }
    }
}
