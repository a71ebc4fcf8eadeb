/// Settings of the ``RewriteDialect/aliyunOSS(_:)`` dialect: which of the
/// compatible query grammars the bucket speaks.
public struct AliyunOSSOptions: Sendable, Hashable {
    /// The query parameter that carries the processing.
    public enum Parameter: String, Sendable, Hashable, CaseIterable {
        /// Aliyun OSS: `x-oss-process=image/resize,w_750/quality,Q_75/format,webp`.
        case ossProcess = "x-oss-process"
        /// Huawei OBS: `x-image-process=image/resize,w_750/quality,q_75/format,webp`.
        case imageProcess = "x-image-process"
        /// Baidu BOS: `x-bce-process=image/resize,m_lfit,w_750/quality,q_75/format,f_webp`.
        case bceProcess = "x-bce-process"
    }

    /// The query parameter; default `x-oss-process`.
    public var parameter: Parameter

    /// Creates OSS settings.
    public init(parameter: Parameter = .ossProcess) {
        self.parameter = parameter
    }
}
