import WebPBridge

/// The loaders the contract tests run against.
enum LoaderKind: String, CaseIterable, CustomStringConvertible {
    case curl
    case urlSession

    func make() -> any DataLoading {
        switch self {
        case .curl: CurlDataLoader()
        case .urlSession: URLSessionDataLoader()
        }
    }

    var description: String { rawValue }
}
