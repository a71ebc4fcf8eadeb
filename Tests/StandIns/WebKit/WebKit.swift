// Stand-in for Apple's WebKit, for `make portability` only: declarations without behaviour,
// exactly what the Apple-only files use, each transcribed from the WebKit header named beside it
// (WebKit/WebKit, Source/WebKit/UIProcess/API/Cocoa/) and the Apple documentation page cited.
// `WK_SWIFT_UI_ACTOR` in a header is `@MainActor` in Swift. Availability is written as the
// headers declare it; a Linux compiler does not enforce it (docs/platforms.md).
//
// On Apple platforms the URL loading types (URLRequest, URLResponse, HTTPURLResponse, URLError) are
// in Foundation, which WebKit re-exports; swift-corelibs-foundation keeps them in
// FoundationNetworking, so here WebKit re-exports that too.
@_exported public import Foundation

#if canImport(FoundationNetworking)
    @_exported public import FoundationNetworking
#endif

private func standIn() -> Never { fatalError("SDK stand-in: type-checking only") }

/// WKWebView.h: `@interface WKWebView : UIView` (iOS) / `NSView` (macOS), main-actor isolated through
/// that superclass (UIResponder and NSResponder are `NS_SWIFT_UI_ACTOR`);
/// https://developer.apple.com/documentation/webkit/wkwebview. No Apple-only file uses its view API, so
/// the stand-in leaves the superclass out (NSObject) and keeps the isolation.
@MainActor
@available(iOS 8.0, macOS 10.10, *)
open class WKWebView: NSObject {
    // What Examples/ uses (docs/apple-setup.md). CGRect is CoreGraphics' on Apple platforms;
    // swift-corelibs-foundation declares it in Foundation, which this stand-in re-exports.

    /// WKWebView.h: `- (instancetype)initWithFrame:(CGRect)frame configuration:(WKWebViewConfiguration
    /// *)configuration NS_DESIGNATED_INITIALIZER` ("The initializer copies the specified configuration");
    /// https://developer.apple.com/documentation/webkit/wkwebview/init(frame:configuration:)
    public init(frame: CGRect, configuration: WKWebViewConfiguration) { standIn() }

    /// WKWebView.h: `- (nullable WKNavigation *)loadHTMLString:(NSString *)string baseURL:(nullable NSURL
    /// *)baseURL` (an Objective-C method's result may be discarded in Swift);
    /// https://developer.apple.com/documentation/webkit/wkwebview/loadhtmlstring(_:baseurl:)
    @discardableResult
    open func loadHTMLString(_ string: String, baseURL: URL?) -> WKNavigation? { standIn() }
}

/// WKNavigation.h: `WK_CLASS_AVAILABLE(macos(10.10), ios(8.0)) @interface WKNavigation : NSObject`,
/// no actor; https://developer.apple.com/documentation/webkit/wknavigation
@available(iOS 8.0, macOS 10.10, *)
open class WKNavigation: NSObject {}

/// WKWebViewConfiguration.h: `WK_SWIFT_UI_ACTOR @interface WKWebViewConfiguration : NSObject
/// <NSSecureCoding, NSCopying>`; https://developer.apple.com/documentation/webkit/wkwebviewconfiguration
@MainActor
@available(iOS 8.0, macOS 10.10, *)
open class WKWebViewConfiguration: NSObject {
    /// `- (void)setURLSchemeHandler:(nullable id <WKURLSchemeHandler>)urlSchemeHandler
    /// forURLScheme:(NSString *)urlScheme`;
    /// https://developer.apple.com/documentation/webkit/wkwebviewconfiguration/seturlschemehandler(_:forurlscheme:)
    @available(iOS 11.0, macOS 10.13, *)
    open func setURLSchemeHandler(_ urlSchemeHandler: (any WKURLSchemeHandler)?, forURLScheme urlScheme: String) {
        standIn()
    }
}

/// WKURLSchemeHandler.h: `WK_SWIFT_UI_ACTOR @protocol WKURLSchemeHandler <NSObject>`;
/// https://developer.apple.com/documentation/webkit/wkurlschemehandler
@MainActor
@available(iOS 11.0, macOS 10.13, *)
public protocol WKURLSchemeHandler: NSObjectProtocol {
    /// `- (void)webView:(WKWebView *)webView startURLSchemeTask:(id <WKURLSchemeTask>)urlSchemeTask`;
    /// https://developer.apple.com/documentation/webkit/wkurlschemehandler/webview(_:start:)
    func webView(_ webView: WKWebView, start urlSchemeTask: any WKURLSchemeTask)
    /// `- (void)webView:(WKWebView *)webView stopURLSchemeTask:(id <WKURLSchemeTask>)urlSchemeTask`;
    /// https://developer.apple.com/documentation/webkit/wkurlschemehandler/webview(_:stop:)
    func webView(_ webView: WKWebView, stop urlSchemeTask: any WKURLSchemeTask)
}

/// WKURLSchemeTask.h: `@protocol WKURLSchemeTask <NSObject>`, no actor, not Sendable;
/// https://developer.apple.com/documentation/webkit/wkurlschemetask
@available(iOS 11.0, macOS 10.13, *)
public protocol WKURLSchemeTask: NSObjectProtocol {
    /// `@property (nonatomic, readonly, copy) NSURLRequest *request`;
    /// https://developer.apple.com/documentation/webkit/wkurlschemetask/request
    var request: URLRequest { get }
    /// `- (void)didReceiveResponse:(NSURLResponse *)response`;
    /// https://developer.apple.com/documentation/webkit/wkurlschemetask/didreceive(_:)-2u23r
    func didReceive(_ response: URLResponse)
    /// `- (void)didReceiveData:(NSData *)data`;
    /// https://developer.apple.com/documentation/webkit/wkurlschemetask/didreceive(_:)-8t5f8
    func didReceive(_ data: Data)
    /// `- (void)didFinish`; https://developer.apple.com/documentation/webkit/wkurlschemetask/didfinish()
    func didFinish()
    /// `- (void)didFailWithError:(NSError *)error`;
    /// https://developer.apple.com/documentation/webkit/wkurlschemetask/didfailwitherror(_:)
    func didFailWithError(_ error: any Error)
}
