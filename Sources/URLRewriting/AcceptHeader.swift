/// Reads an `Accept` header the way WebP negotiation needs.
public enum AcceptHeader {
    /// Whether `accept` lists `image/webp` with a quality above zero.
    ///
    /// `image/*` and `*/*` do not count: Safari 14 on older macOS sends
    /// `image/*` and cannot decode WebP. A malformed `q` counts as zero, so
    /// a doubtful client is transcoded for rather than sent bytes it may not show.
    public static func acceptsWebP(_ accept: String?) -> Bool {
        guard let accept, RawQuery.containsIgnoringCase(accept[...], "image/webp") else { return false }
        for range in accept.split(separator: ",") {
            var parameters = range.split(separator: ";").makeIterator()
            guard let type = parameters.next(),
                RawQuery.lowercasedASCII(type.trimmingSpaces) == "image/webp"
            else { continue }
            var quality = 1.0
            while let parameter = parameters.next() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, RawQuery.lowercasedASCII(pair[0].trimmingSpaces) == "q" else { continue }
                quality = Double(pair[1].trimmingSpaces) ?? 0
            }
            if quality > 0 { return true }
        }
        return false
    }

    /// `accept` with every `image/webp` range removed and `image/webp;q=0`
    /// added, for a request made on behalf of a client that must not get
    /// WebP (a negotiating upstream would otherwise answer with it).
    ///
    /// A missing or empty header becomes `*/*, image/webp;q=0`, keeping
    /// "anything else" acceptable.
    public static func refusingWebP(_ accept: String?) -> String {
        let kept = (accept ?? "").split(separator: ",").filter { range in
            let type = range.split(separator: ";", maxSplits: 1).first ?? ""
            return !type.trimmingSpaces.isEmpty && RawQuery.lowercasedASCII(type.trimmingSpaces) != "image/webp"
        }
        let others = kept.isEmpty ? "*/*" : kept.map { String($0.trimmingSpaces) }.joined(separator: ", ")
        return others + ", image/webp;q=0"
    }
}
