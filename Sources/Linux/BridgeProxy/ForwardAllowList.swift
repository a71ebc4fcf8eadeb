import Foundation

/// Forward mode's address book: the hosts a rewrite rule or an allowed-host
/// entry names, each with the ports it may be reached on.
///
/// An entry `host` (and every rule's host) allows the scheme's default port
/// only — 80 for `http`, 443 for `https`; `host:port` allows that port too,
/// for either scheme. Hosts compare exactly, ignoring ASCII case; a rule's
/// `*.domain` matches subdomains at a label boundary, never a substring, so
/// `img.host.com.evil.example` is refused.
struct ForwardAllowList: Sendable {
    /// Ports named for a host beyond the default ones.
    private var exactHosts: [String: Set<Int>] = [:]
    /// `.example.com` for a rule's `*.example.com`.
    private var wildcardSuffixes: [String] = []

    /// - Parameters:
    ///   - entries: `host` or `host:port` (`[v6]:port` for IPv6), as
    ///     ``BridgeProxy/Configuration/Mode/forward(allowedHosts:)`` takes them.
    ///   - ruleHosts: The rewrite rules' hosts (`img.example.com`, `*.example.com`).
    init(entries: Set<String>, ruleHosts: [String]) {
        for entry in entries {
            guard let (host, port) = Self.parse(entry) else { continue }
            exactHosts[host, default: []].formUnion(port.map { [$0] } ?? [])
        }
        for host in ruleHosts.map({ $0.lowercased() }) {
            if host.hasPrefix("*.") {
                wildcardSuffixes.append(String(host.dropFirst()))
            } else {
                exactHosts[host, default: []].formUnion([])
            }
        }
    }

    /// Splits `host[:port]` (`[v6][:port]`), lower-casing the host; `nil`
    /// when it is not one (empty, a path, user info, a bad port).
    static func parse(_ entry: String) -> (host: String, port: Int?)? {
        var host = Substring(entry.lowercased())
        var port: Int?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let value = Int(rest.dropFirst()) else { return nil }
                port = value
            }
        } else if let colon = host.lastIndex(of: ":") {
            guard let value = Int(host[host.index(after: colon)...]) else { return nil }
            port = value
            host = host[..<colon]
        }
        if let port, !(1...65_535).contains(port) { return nil }
        guard !host.isEmpty, !host.contains(where: { "/@?#\\ \t*".contains($0) }) else { return nil }
        if !entry.hasPrefix("["), host.contains(":") { return nil }
        return (String(host), port)
    }

    /// Why `url` may not be fetched, or `nil` when it may.
    func refusal(for url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return "only http:// and https:// URLs are fetched"
        }
        guard var host = url.host?.lowercased(), !host.isEmpty else { return "the URL has no host" }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        let ports: Set<Int>
        if let named = exactHosts[host] {
            ports = named
        } else if wildcardSuffixes.contains(where: { host.hasSuffix($0) && host.count > $0.count }) {
            ports = []
        } else {
            return "host '\(host)' is not one this bridge serves (no rule or --allow-host names it; "
                + "the bridge is not an open proxy)"
        }
        let defaultPort = scheme == "https" ? 443 : 80
        guard port == defaultPort || ports.contains(port) else {
            return "port \(port) of '\(host)' is not one this bridge serves (only \(defaultPort) for \(scheme) "
                + "unless --allow-host \(host):\(port) names it)"
        }
        return nil
    }

    /// The entries, sorted, for the redirect policy's name.
    var summary: String {
        let hosts = exactHosts.map { host, ports in
            ([host] + ports.sorted().map { "\(host):\($0)" }).joined(separator: ", ")
        }
        return (hosts + wildcardSuffixes.map { "*" + $0 }).sorted().joined(separator: ", ")
    }
}
