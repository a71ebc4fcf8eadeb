// Linux (and any platform whose manifest provides libcurl): the curl loader.
#if canImport(CCurl)
    import Foundation
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The sockets of the connections libcurl keeps for reuse, so that a
    /// transfer about to reuse one can tell whether the upstream wrote to it
    /// while it sat idle.
    ///
    /// An HTTP/1.1 upstream writes nothing between answers. Bytes there — a
    /// body sent after a `HEAD`'s head, a second answer past a
    /// `Content-Length` — would be read as the next request's answer, and
    /// every later answer on that connection would go to the request before
    /// it: one client's answer, cookies and all, to another, and a stray
    /// image into the cache under another URL. libcurl 8 refuses to reuse
    /// such a connection; Debian 12's libcurl 7.88 checks only that the peer
    /// has not closed it (an adversarial review reproduced both through the
    /// proxy).
    ///
    /// Curl thread only. Holds at most `capacity` sockets, the most recently
    /// recorded; libcurl keeps at most ``CurlDataLoader/Configuration/maxIdleConnections``.
    final class IdleSockets {
        /// A socket and the ports it had when recorded, so that finding a
        /// connection by its ports asks the kernel nothing.
        private struct Entry {
            var socket: Int32
            var localPort: Int
            var remotePort: Int
        }

        private var entries: [Entry] = []
        private let capacity: Int

        /// - Parameter capacity: The most sockets remembered (at least 1).
        init(capacity: Int) {
            self.capacity = max(1, capacity)
        }

        /// Remembers the socket a finished transfer left to libcurl's cache.
        func record(_ socket: Int32) {
            guard socket >= 0, let localPort = Self.port(of: socket, peer: false),
                let remotePort = Self.port(of: socket, peer: true)
            else { return }
            entries.removeAll { $0.socket == socket }
            if entries.count == capacity { entries.removeFirst() }
            entries.append(Entry(socket: socket, localPort: localPort, remotePort: remotePort))
        }

        /// Whether the connection from local port `localPort` to port
        /// `remotePort` has bytes waiting that no request asked for. Its
        /// socket is forgotten either way: it is in use again, and recorded
        /// again when that transfer ends. A connection whose socket was not
        /// recorded (a new one) has none.
        func hasUnaskedInput(localPort: Int, remotePort: Int) -> Bool {
            guard let index = entries.firstIndex(where: { $0.localPort == localPort && $0.remotePort == remotePort })
            else { return false }
            let socket = entries.remove(at: index).socket
            // libcurl may have closed that socket since, and the number been given to another.
            guard Self.port(of: socket, peer: false) == localPort, Self.port(of: socket, peer: true) == remotePort
            else { return false }
            var byte: UInt8 = 0
            return recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
        }

        /// The local (or, with `peer`, the remote) port of `socket`, or `nil`
        /// when it is not an open IPv4 or IPv6 socket.
        private static func port(of socket: Int32, peer: Bool) -> Int? {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let read = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    peer ? getpeername(socket, $0, &length) : getsockname(socket, $0, &length)
                }
            }
            guard read == 0 else { return nil }
            switch Int32(storage.ss_family) {
            case AF_INET:
                return withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                        Int(UInt16(bigEndian: $0.pointee.sin_port))
                    }
                }
            case AF_INET6:
                return withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        Int(UInt16(bigEndian: $0.pointee.sin6_port))
                    }
                }
            default:
                return nil
            }
        }
    }
#endif
