public import Foundation
import HTTPServer

/// `fuzz-request-head`: raw bytes sent through a real socket to an
/// in-process ``HTTPServer`` on 127.0.0.1, port 0, so libmicrohttpd's parser
/// and the server's conversion of what it parsed both see them.
///
/// After each input the answer (if any) must be well-formed HTTP/1.x, and
/// the server must still answer a plain request on a fresh connection.
///
/// An input that ends inside a line is sent with a CRLF appended, and the
/// server runs with 1 s timeouts: libmicrohttpd waits for the rest of an
/// unfinished request (a partial line, only empty lines, an unfinished
/// trailer section) until the connection timeout even after the client has
/// half-closed (a finding reported with the fuzzing results), which would
/// otherwise make every such input cost 30 s.
public enum RequestHeadFuzzEntry {
    /// How long one exchange may take before it counts as a hang.
    private static let ioTimeoutSeconds = 5

    /// Sends `data` as one client would (then closes its sending side), reads
    /// everything the server answers, checks it, and probes the server.
    public static func run(_ data: Data) {
        let port = FuzzServer.shared.port
        let answer: Data
        do {
            let sent = data.last == UInt8(ascii: "\n") ? data : data + Data("\r\n".utf8)
            answer = try LoopbackClient.exchange(sent, port: port, timeoutSeconds: ioTimeoutSeconds)
        } catch {
            FuzzExpectation.fail("exchange with the server failed: \(error)")
        }
        if !answer.isEmpty {
            if let problem = ResponseHeadCheck.problem(in: answer) {
                FuzzExpectation.fail(
                    "malformed answer (\(problem)): "
                        + String(decoding: answer.prefix(512), as: UTF8.self).debugDescription)
            }
        }
        let probe = Data("GET /probe HTTP/1.1\r\nHost: fuzz\r\nConnection: close\r\n\r\n".utf8)
        let alive: Data
        do {
            alive = try LoopbackClient.exchange(probe, port: port, timeoutSeconds: ioTimeoutSeconds)
        } catch {
            FuzzExpectation.fail("server no longer answers after the input: \(error)")
        }
        FuzzExpectation.require(
            alive.starts(with: Data("HTTP/1.1 200 ".utf8)),
            "server answers a plain request with \(String(decoding: alive.prefix(64), as: UTF8.self).debugDescription)")
    }
}
