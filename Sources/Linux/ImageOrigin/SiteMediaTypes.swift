/// The media types of the files a site serves besides its images, by file
/// extension: a small built-in table, as a web server's `mime.types`.
///
/// Images are never typed here: the origin sniffs them from their bytes. A
/// file whose bytes are not an image gets its type from this table, and an
/// extension the table does not know — `.jpg` included, since such a file
/// is not a JPEG — gets `application/octet-stream`, which browsers download
/// rather than render (the origin adds `X-Content-Type-Options: nosniff`).
public enum SiteMediaTypes {
    /// The type of files whose extension the table does not know.
    public static let fallback = "application/octet-stream"

    /// Extensions (lowercase, without the dot) and their media types; text
    /// types say UTF-8, as the files a site publishes are.
    public static let table: [String: String] = [
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json",
        "map": "application/json",
        "webmanifest": "application/manifest+json",
        "xml": "application/xml",
        "rss": "application/rss+xml",
        "atom": "application/atom+xml",
        "txt": "text/plain; charset=utf-8",
        "csv": "text/csv; charset=utf-8",
        "md": "text/markdown; charset=utf-8",
        "svg": "image/svg+xml",
        "ico": "image/x-icon",
        "avif": "image/avif",
        "woff": "font/woff",
        "woff2": "font/woff2",
        "ttf": "font/ttf",
        "otf": "font/otf",
        "wasm": "application/wasm",
        "pdf": "application/pdf",
        "mp4": "video/mp4",
        "webm": "video/webm",
        "mp3": "audio/mpeg",
    ]

    /// The media type of the file at `path`, by its extension (any case).
    /// - Parameter path: A file path or name, e.g. `/static/site.css`.
    /// - Returns: The table's type, or ``fallback``.
    public static func type(forPath path: String) -> String {
        let name = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { path[path.index(after: $0)...] } ?? path[...]
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return fallback }
        let suffix = name[name.index(after: dot)...]
        return table[suffix.lowercased()] ?? fallback
    }
}
