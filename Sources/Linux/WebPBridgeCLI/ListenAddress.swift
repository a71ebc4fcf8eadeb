/// `HOST:PORT` as given to `--listen`; loopback unless the user names
/// another address.
struct ListenAddress: Sendable, Equatable {
    var host: String
    var port: Int

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `--listen HOST:PORT`, declared once for the server commands; each
    /// names its own default port.
    static func option(defaultPort: Int) -> OptionSpec {
        .option(
            "--listen", value: "HOST:PORT",
            help: "Where to listen (default 127.0.0.1:\(defaultPort); port 0 picks one).")
    }

    /// The `--listen` address given, else 127.0.0.1 on `defaultPort`.
    /// - Throws: ``UsageError`` when the value is not `HOST:PORT`.
    init(parsed: ParsedArguments, defaultPort: Int) throws(UsageError) {
        if let text = parsed.string("--listen") {
            try self.init(parsing: text, option: "--listen")
        } else {
            self.init(host: "127.0.0.1", port: defaultPort)
        }
    }

    /// Parses `127.0.0.1:8081`, `[::1]:8081`, `localhost:0` or `:8081` (loopback).
    init(parsing text: String, option: String) throws(UsageError) {
        guard let colon = text.lastIndex(of: ":") else {
            throw UsageError("option '\(option)' expects HOST:PORT, got '\(text)'")
        }
        var host = String(text[..<colon])
        let portText = text[text.index(after: colon)...]
        guard let port = Int(portText), (0...65_535).contains(port) else {
            throw UsageError("option '\(option)' needs a port 0-65535, got '\(portText)'")
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.isEmpty || host == "localhost" { host = "127.0.0.1" }
        self.init(host: host, port: port)
    }
}
