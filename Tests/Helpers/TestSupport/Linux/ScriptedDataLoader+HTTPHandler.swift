import Foundation
public import HTTPServer
import WebPBridge

extension ScriptedDataLoader {
    /// A loader whose unscripted requests are answered by `handler`
    /// in-process — an upstream site without sockets — as the server would
    /// answer them (`Host` from the URL, no body for `HEAD`, a missing
    /// `Content-Length` filled in).
    public convenience init(serving handler: any HTTPHandler) {
        self.init { request, _ throws(DataLoadingError) in
            var target = request.url.path.isEmpty ? "/" : request.url.path
            if let query = request.url.query { target += "?" + query }
            var headers = request.headers
            if let host = request.url.host { headers.add(name: "Host", value: host) }
            let response = await handler.handle(
                HTTPRequest(
                    method: HTTPMethod(rawValue: request.method), target: target, headers: headers,
                    body: request.body ?? Data()))
            var body: Data
            switch response.body {
            case .empty: body = Data()
            case .data(let data): body = data
            case .bytes(let bytes): body = bytes.data
            case .file(let path, _, _):
                do { body = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                    throw DataLoadingError(.networkFailure, "\(path): \(error)")
                }
            }
            if request.method == "HEAD" { body = Data() }
            var fields = response.headers
            if fields["content-length"] == nil {
                switch response.body {
                case .data(let data): fields["content-length"] = String(data.count)
                case .bytes(let bytes): fields["content-length"] = String(bytes.count)
                case .empty, .file: break
                }
            }
            return DataResponse(url: request.url, statusCode: response.status.code, headers: fields, body: body)
        }
    }
}
