import Dispatch
import HTTPServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a server until SIGINT or SIGTERM, then shuts it down gracefully:
/// the shared life of `origin`, `proxy` and `demo --serve`.
enum ServerLifecycle {
    /// Waits for SIGINT or SIGTERM and returns its name.
    static func waitForTerminationSignal() async -> String {
        let signals = [SIGINT, SIGTERM]
        for number in signals { signal(number, SIG_IGN) }
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let sources = signals.map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        var received: Int32 = SIGTERM
        for await number in stream {
            received = number
            break
        }
        for source in sources { source.cancel() }
        return received == SIGINT ? "SIGINT" : "SIGTERM"
    }

    /// Starts `server`, prints `listening on URL` first, serves until a
    /// termination signal, and shuts down.
    static func run(_ server: HTTPServer, io: CommandIO, name: String) async throws {
        let endpoint: HTTPServer.Endpoint
        do {
            endpoint = try await server.start()
        } catch {
            throw CommandFailure("\(name): \(error)")
        }
        io.print("listening on \(endpoint.url)")
        let signalName = await waitForTerminationSignal()
        io.printError("\(signalName) received: finishing requests in flight, then stopping")
        await server.shutdown()
        io.printError("\(name) stopped")
    }
}
