/// Normalises a URL string into a cache key: scheme and host lower-cased,
/// the scheme's default port and the fragment dropped. Everything else
/// (user info, path, query, percent-encoding) is kept as written, because a
/// CDN may treat it as significant.
enum CacheKey {
    static func normalized(_ parts: URLParts) -> String {
        let scheme = parts.normalizedScheme
        let hasUpperHost = parts.hostHasUppercase
        let dropsPort: Bool
        if let port = parts.port {
            dropsPort = port.isEmpty || (scheme == "http" && port == "80") || (scheme == "https" && port == "443")
        } else {
            dropsPort = false
        }
        if !hasUpperHost, !dropsPort, parts.fragment == nil, scheme.utf8.count == parts.scheme.utf8.count,
            scheme == parts.scheme
        {
            return parts.string
        }
        var key = scheme + "://"
        if let userInfo = parts.userInfo { key += userInfo + "@" }
        key += hasUpperHost ? parts.host.lowercased() : String(parts.host)
        if let port = parts.port, !dropsPort { key += ":" + port }
        key += parts.path
        if let query = parts.query { key += "?" + query }
        return key
    }

    /// For strings that are not absolute `scheme://host` URLs: only the fragment goes.
    static func normalized(unparsed string: String) -> String {
        guard let hash = string.firstIndex(of: "#") else { return string }
        return String(string[..<hash])
    }
}
