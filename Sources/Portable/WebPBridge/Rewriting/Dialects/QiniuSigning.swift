/// Qiniu private URLs: the signature in `token=` covers the processing.
enum QiniuSigning {
    static func isSigned(_ query: Substring?) -> Bool {
        guard let query, !query.isEmpty else { return false }
        var hasDeadline = false
        var hasToken = false
        RawQuery.forEachItem(in: query) { item in
            let name = RawQuery.name(of: item)
            if name == "e" { hasDeadline = true }
            if name == "token" { hasToken = true }
            return hasDeadline && hasToken
        }
        return hasDeadline && hasToken
    }
}
