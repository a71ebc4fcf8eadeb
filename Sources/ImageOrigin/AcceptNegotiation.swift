/// Reading `Accept` for WebP support, as the design decides it: only an
/// explicit `image/webp` with q > 0 counts; `image/*` and `*/*` do not
/// (Safari 14 on older macOS sends `image/*` and cannot decode WebP).
public enum AcceptNegotiation {
    /// Whether `accept` lists `image/webp` with a non-zero quality.
    public static func acceptsWebP(_ accept: String?) -> Bool {
        guard let accept else { return false }
        for range in accept.split(separator: ",") {
            let parameters = range.split(separator: ";").map { $0.trimmingCharacters(in: " \t") }
            guard let type = parameters.first, type.lowercased() == "image/webp" else { continue }
            var quality = 1.0
            for parameter in parameters.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: " \t") }
                if pair.count == 2, pair[0].lowercased() == "q" {
                    quality = Double(pair[1]) ?? 0
                }
            }
            return quality > 0
        }
        return false
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
