public import Foundation
public import WebPBridge

/// A web view's request for a custom-scheme URL, as the scheme handler saw it.
public struct SchemeRequest: Sendable {
    /// `GET` or `HEAD` (anything else is answered `405`).
    public var method: String
    /// The custom-scheme URL (`webp-bridge-https://…`).
    public var url: URL
    /// The request's fields as the web view sent them.
    public var fields: HTTPFieldList

    public init(method: String = "GET", url: URL, fields: HTTPFieldList = [:]) {
        self.method = method.uppercased()
        self.url = url
        self.fields = fields
    }
}

/// An HTTP answer for the web view: status, fields and body (empty for `HEAD` and `304`).
public struct SchemeResponse: Sendable {
    public var statusCode: Int
    public var fields: HTTPFieldList
    public var body: Data

    public init(statusCode: Int, fields: HTTPFieldList, body: Data = Data()) {
        self.statusCode = statusCode
        self.fields = fields
        self.body = body
    }

    /// A plain-text answer with `status`, saying why.
    static func status(_ status: Int, _ reason: String, fields: HTTPFieldList = [:]) -> SchemeResponse {
        let body = Data((reason + "\n").utf8)
        var all = fields
        all.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        all.add(name: "Content-Length", value: String(body.count))
        return SchemeResponse(statusCode: status, fields: all, body: body)
    }
}

/// How a scheme request ends: an HTTP answer, or a failure the web view
/// sees as a network error (what it would see fetching the URL itself).
public enum SchemeAnswer: Sendable {
    case response(SchemeResponse)
    case failed(SchemeFailure)
}

/// A network-level failure, with the `URLError` code a web view expects.
public struct SchemeFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: URLError.Code
    public var description: String

    public init(code: URLError.Code, description: String) {
        self.code = code
        self.description = description
    }

    /// The load was cancelled (the web view stopped it).
    public static let cancelled = SchemeFailure(code: .cancelled, description: "cancelled")

    /// The failure of a loader or the pipeline, by kind.
    init(_ error: any Error) {
        let loading = (error as? DataLoadingError) ?? (error as? ImagePipelineError)?.loadingError
        let code = loading?.urlErrorCode ?? .badServerResponse
        self.init(code: code, description: "\(error)")
    }
}
