import Foundation

/// A strong `ETag` for a body the bridge delivers from the image path: the
/// same URL gives different bodies to different clients (WebP, JPEG, PNG),
/// so the upstream's tag cannot be reused. The tag hashes (64-bit FNV-1a)
/// the cache key, the URL fetched, the delivered format and the upstream's
/// validator — its `ETag`, else `Last-Modified`, else the bytes themselves —
/// so it changes whenever the upstream's bytes do, and is the same across
/// restarts for the same bytes.
enum TransformedEntityTag {
    /// The tag, quoted: `"wb-0123456789abcdef"`.
    static func make(
        cacheKey: String, fetchedURL: String, deliveredFormat: String, upstreamETag: String?,
        upstreamLastModified: String?, source: Data
    ) -> String {
        var hash = EntityTag.Digest()
        for part in [cacheKey, fetchedURL, deliveredFormat] {
            hash.update(part.utf8)
            hash.update(CollectionOfOne(0))
        }
        if let upstreamETag {
            hash.update("etag:".utf8)
            hash.update(upstreamETag.utf8)
        } else if let upstreamLastModified {
            hash.update("lm:".utf8)
            hash.update(upstreamLastModified.utf8)
        } else {
            source.withUnsafeBytes { hash.update($0) }
        }
        let digits = String(hash.value, radix: 16)
        return EntityTag.strong("wb-" + String(repeating: "0", count: 16 - digits.count) + digits)
    }
}
