#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

extension URLSessionConfiguration {
    /// An ephemeral configuration whose request and resource timeouts are
    /// the suite's hang bound (``SuiteBound/seconds``) rather than
    /// URLSession's 60 s: for a test that asks a server for real work (a
    /// built origin enlarging a picture to 3,000 pixels a side), which
    /// under AddressSanitizer, with the rest of the suite on the same two
    /// cores, took longer than 60 s and failed the test with
    /// `NSURLErrorTimedOut` though nothing hung.
    public static var suiteBounded: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = SuiteBound.seconds
        configuration.timeoutIntervalForResource = SuiteBound.seconds
        return configuration
    }
}
