public import Foundation

/// What ``ClientPolicy`` looks at: the image URL and the client's headers.
public struct ClientRequest: Sendable, Hashable {
    /// The image URL the client asked for.
    public var url: URL
    /// The `User-Agent` header, if any.
    public var userAgent: String?
    /// The `Accept` header, if any.
    public var accept: String?
    /// The device class, when the app knows it.
    public var deviceClass: DeviceClass?

    /// Creates a request description.
    public init(url: URL, userAgent: String? = nil, accept: String? = nil, deviceClass: DeviceClass? = nil) {
        self.url = url
        self.userAgent = userAgent
        self.accept = accept
        self.deviceClass = deviceClass
    }
}
