import Foundation
import Synchronization
import TestSupport

/// Asks one server for every URL of a list, `clients` at a time (one thread
/// each), and writes each answer's body where the list says. A WebP or AVIF
/// answer with status 200 counts; anything else is a failure. Bounded: no request
/// starts after `seconds`, and every read and write of a request times out
/// after ``requestTimeout`` seconds.
///
/// Every request is sent on a connection of its own (`Connection: close`),
/// so a server of several processes sharing one listening socket (thumbor
/// with `--processes 2`) hands each request to a process that is free. On
/// kept-alive connections both clients could stay on one process for the
/// whole round, which halved thumbor's variants/s at the same CPU per
/// variant. The requests go through TestSupport's blocking
/// `RawHTTPConnection`, not URLSession: on Linux, URLSession took about
/// 15 ms longer per request once every request closed its connection (54
/// variants from the origin, two clients: 1.19–1.28 s against 0.82–0.85 s
/// kept alive), which would have been counted as the servers' time.
struct LoadRun {
    struct Result {
        var answers = 0
        var failures = 0
        var seconds = 0.0
        var bytes = 0
        var failureSamples: [String] = []
    }

    var list: TabList
    var clients: Int
    var seconds: Double

    /// How long one read or write of a request may block.
    static let requestTimeout: TimeInterval = 60

    /// Hands out the list's rows and collects the outcome.
    private final class Progress: Sendable {
        private struct State {
            var next = 0
            var result = Result()
        }
        private let state = Mutex(State())
        let count: Int
        let deadline: ContinuousClock.Instant

        init(count: Int, deadline: ContinuousClock.Instant) {
            self.count = count
            self.deadline = deadline
        }

        var result: Result { state.withLock { $0.result } }

        func take() -> Int? {
            state.withLock { state in
                guard state.next < count, ContinuousClock.now < deadline else { return nil }
                defer { state.next += 1 }
                return state.next
            }
        }

        func record(bytes: Int?, failure: String?) {
            state.withLock { state in
                if let bytes {
                    state.result.answers += 1
                    state.result.bytes += bytes
                }
                if let failure {
                    state.result.failures += 1
                    if state.result.failureSamples.count < 5 { state.result.failureSamples.append(failure) }
                }
            }
        }
    }

    func run() -> Result {
        let rows = list.rows
        let clock = ContinuousClock()
        let start = clock.now
        let progress = Progress(count: rows.count, deadline: start + .milliseconds(Int(seconds * 1000)))
        let finished = DispatchGroup()
        for _ in 0..<clients {
            finished.enter()
            Thread {
                while let index = progress.take() {
                    let (url, output) = rows[index]
                    let outcome = Self.fetch(url, into: output)
                    progress.record(bytes: outcome.bytes, failure: outcome.failure)
                }
                finished.leave()
            }.start()
        }
        finished.wait()
        var result = progress.result
        let elapsed = clock.now - start
        result.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return result
    }

    private static func fetch(_ address: String, into output: String) -> (bytes: Int?, failure: String?) {
        // RawHTTPConnection connects to 127.0.0.1, so nothing else may be asked for.
        guard let components = URLComponents(string: address), components.scheme == "http",
            components.host == "127.0.0.1", let port = components.port
        else { return (nil, "\(address): not an http://127.0.0.1:PORT/ address") }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let target = components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
        do {
            let connection = try RawHTTPConnection(port: port, timeout: requestTimeout)
            try connection.write(
                "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: */*\r\nConnection: close\r\n\r\n")
            let answer = try connection.readResponse()
            let data = answer.body
            let isWebP = data.count > 12 && data.prefix(4) == Data("RIFF".utf8) && data[8..<12] == Data("WEBP".utf8)
            // An AVIF starts with its ftyp box, major brand `avif` (ISO/IEC 23000-22 and the AVIF spec, 9.1).
            let isAVIF = data.count > 12 && data[4..<8] == Data("ftyp".utf8) && data[8..<12] == Data("avif".utf8)
            guard answer.status == 200, isWebP || isAVIF else {
                return (nil, "\(address): status \(answer.status), \(data.count) bytes")
            }
            try data.write(to: URL(fileURLWithPath: output))
            return (data.count, nil)
        } catch {
            return (nil, "\(address): \(error)")
        }
    }
}
