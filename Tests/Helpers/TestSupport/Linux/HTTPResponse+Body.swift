public import Foundation
public import HTTPServer

extension HTTPResponse {
    /// The body bytes, reading a file body from disk (empty when there is
    /// no body, or the file cannot be read).
    public var bodyData: Data {
        switch body {
        case .empty: Data()
        case .data(let data): data
        case .bytes(let bytes): bytes.data
        case .file(let path, let offset, let length):
            Data(
                ((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data())
                    .dropFirst(Int(offset)).prefix(length.map { Int($0) } ?? Int.max))
        }
    }

    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: bodyData, as: UTF8.self) }
}
