/// Settings of the ``RewriteDialect/tencentCI(_:)`` dialect.
public struct TencentCIOptions: Sendable, Hashable {
    /// Whether added processing ends with `ignore-error/1`; default `true`.
    public var ignoreError: Bool

    /// Creates Tencent CI settings.
    public init(ignoreError: Bool = true) {
        self.ignoreError = ignoreError
    }
}
