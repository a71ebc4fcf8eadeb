// Linux only, as this whole benchmark is (it links ImageCodecs): Glibc sockets.
import Foundation
import Glibc

/// One HTTP/1.1 GET on a connection of its own (`Connection: close`), to a
/// server on an IPv4 loopback address: what `origin-benchmark load` sends.
///
/// A plain blocking socket rather than URLSession: on Linux, URLSession
/// took about 15 ms longer per request when every request closed its
/// connection (measured against the origin: 54 variants, two clients, 1.19–1.28 s
/// against 0.82–0.85 s kept alive), which would have been counted as the
/// servers' time.
struct LoopbackGet {
    /// The largest answer read, head and body; more is a failure.
    static let maxAnswerBytes = 64 << 20
    /// How long a connect, send or receive may block.
    static let timeoutSeconds = 60

    struct Answer {
        var status: Int
        var body: Data
    }

    let host: String
    let port: UInt16
    /// Path and query, as sent in the request line.
    let target: String

    /// Parses `http://127.x.y.z:PORT/path?query`.
    init(_ address: String) throws {
        guard let components = URLComponents(string: address), components.scheme == "http",
            let host = components.host, host.hasPrefix("127."), let port = components.port,
            let port = UInt16(exactly: port)
        else { throw BenchmarkError("\(address): not an http://127.x.y.z:PORT/ address") }
        self.host = host
        self.port = port
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        target = components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
    }

    func run() throws -> Answer {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw BenchmarkError("\(host): not IPv4") }
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw BenchmarkError("socket: \(String(cString: strerror(errno)))") }
        defer { close(socket) }
        var timeout = timeval(tv_sec: Self.timeoutSeconds, tv_usec: 0)
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            setsockopt(socket, SOL_SOCKET, option, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            throw BenchmarkError("connect \(host):\(port): \(String(cString: strerror(errno)))")
        }
        let head = "GET \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\nAccept: */*\r\nConnection: close\r\n\r\n"
        let request = Array(head.utf8)
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw BenchmarkError("send: \(String(cString: strerror(errno)))") }
            sent += count
        }
        var answer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            guard count > 0 else { throw BenchmarkError("recv: \(String(cString: strerror(errno)))") }
            answer += chunk[..<count]
            guard answer.count <= Self.maxAnswerBytes else {
                throw BenchmarkError("answer larger than \(Self.maxAnswerBytes) bytes")
            }
        }
        return try Self.parse(answer)
    }

    /// The status and body of a whole answer read to the end of the
    /// connection; the body must be as long as `Content-Length` says.
    static func parse(_ answer: [UInt8]) throws -> Answer {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let headEnd = answer.firstRange(of: separator) else { throw BenchmarkError("no end of head") }
        let head = String(decoding: answer[..<headEnd.lowerBound], as: UTF8.self)
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw BenchmarkError("bad status line: \(lines[0].prefix(80))")
        }
        let body = answer[headEnd.upperBound...]
        for line in lines.dropFirst() {
            let field = line.split(separator: ":", maxSplits: 1)
            guard field.count == 2 else { continue }
            let name = field[0].lowercased()
            let value = field[1].trimmingCharacters(in: .whitespaces)
            if name == "transfer-encoding" { throw BenchmarkError("\(value) answers are not read") }
            if name == "content-length", Int(value) != body.count {
                throw BenchmarkError("Content-Length \(value), \(body.count) bytes received")
            }
        }
        return Answer(status: status, body: Data(body))
    }
}
