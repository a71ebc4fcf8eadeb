/// Settings of the ``RewriteDialect/qiniu(_:)`` dialect.
public struct QiniuOptions: Sendable, Hashable {
    /// The `imageView2` mode (0–5) used when a width is set; default 2
    /// (width ≤ W, proportional, no crop). Without a width, mode 0 is used.
    public var mode: Int
    /// Whether added processing ends with `ignore-error/1` (on failure the
    /// CDN returns the original bytes instead of an error); default `true`.
    public var ignoreError: Bool
    /// The bucket's style separator (`-` by default; `_`, `!` or `/` elsewhere).
    public var styleSeparator: String
    /// The bucket's styles: name → processing body (`imageView2/2/w/750/format/webp`).
    /// The body is needed because it lives on the server: without it the
    /// rewriter cannot know what a style does.
    public var styles: [String: String]
    /// Whether the bucket accepts only style URLs (original-image protection):
    /// then the rewriter appends a style and never adds processing to the query.
    public var stylesOnly: Bool

    /// Creates Qiniu settings; every parameter has the documented default.
    public init(
        mode: Int = 2, ignoreError: Bool = true, styleSeparator: String = "-",
        styles: [String: String] = [:], stylesOnly: Bool = false
    ) {
        self.mode = mode
        self.ignoreError = ignoreError
        self.styleSeparator = styleSeparator
        self.styles = styles
        self.stylesOnly = stylesOnly
    }
}
