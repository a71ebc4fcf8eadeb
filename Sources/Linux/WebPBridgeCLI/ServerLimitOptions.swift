import HTTPServer

/// The server limits that `origin` and `proxy` both take on the command
/// line; each defaults to ``HTTPServer/Configuration/Limits-swift.struct``'s.
struct ServerLimitOptions: Equatable {
    /// The options, for a command's ``CommandConfiguration``.
    static let specs: [OptionSpec] = [
        .option(
            "--max-connections", value: "N",
            help: "Open connections across all clients (default 10000, lowered to fit ulimit -n)."),
        .option(
            "--max-connections-per-client", value: "N",
            help: "Open connections per client address (default 256; 0: none, e.g. behind a proxy)."),
        .option(
            "--max-body-total", value: "MIB",
            help: "Request bodies held at once, in MiB (default: the memory budget's share)."),
        .option(
            "--max-head-memory", value: "KIB",
            help: "Memory per connection for a request's head, in KiB; about half holds the head"
                + " (default: origin 16, proxy 32)."),
    ]

    var maxConnections: Int?
    /// 0 stands for no per-client limit.
    var maxConnectionsPerClient: Int?
    var maxBodyMiB: Int?
    /// `--max-head-memory`, in KiB.
    var maxHeadMemoryKiB: Int?

    init(parsed: ParsedArguments) throws(UsageError) {
        maxConnections = try parsed.int("--max-connections", in: 1...1_000_000)
        maxConnectionsPerClient = try parsed.int("--max-connections-per-client", in: 0...1_000_000)
        maxBodyMiB = try parsed.int("--max-body-total", in: 0...1_048_576)
        maxHeadMemoryKiB = try parsed.int("--max-head-memory", in: 4...1024)
    }

    /// Sets the limits that were given.
    func apply(to limits: inout HTTPServer.Configuration.Limits) {
        if let maxConnections { limits.maxConnections = maxConnections }
        if let maxConnectionsPerClient {
            limits.maxConnectionsPerClient = maxConnectionsPerClient == 0 ? nil : maxConnectionsPerClient
        }
        if let maxBodyMiB { limits.maxBodyBytesInFlight = maxBodyMiB << 20 }
        if let maxHeadMemoryKiB { limits.maxHeaderBytes = maxHeadMemoryKiB << 10 }
    }
}
