// swift-format-ignore-file: AlwaysUseLowerCamelCase

// Stand-in for Apple's CoreGraphics (and the CoreFoundation types it re-exports), for
// `make portability` only: declarations without behaviour, exactly what the Apple-only files use.
// Each one is transcribed from the header named beside it and the Apple documentation page cited
// (https://developer.apple.com/documentation/coregraphics/...). Never shaped to fit our code: a
// mismatch with our code is a finding, not a reason to change a stand-in.
//
// Approximations, all of them stated in docs/platforms.md:
// - CoreFoundation's CFString, CFData, CFMutableData and CFDictionary are toll-free bridged with
//   NSString, NSData, NSMutableData and NSDictionary (CFString.h, CFData.h, CFDictionary.h;
//   https://developer.apple.com/documentation/corefoundation/cfstring "toll-free bridged"), and
//   swift-corelibs-foundation has no CF types in Swift, so they are aliases of those classes here.
// - CGFloat and CGRect come from swift-corelibs-foundation (CGGeometry.h on Apple platforms).
// - Availability is written as Apple documents it, but a Linux compiler does not enforce iOS or
//   macOS availability; the floor is checked by portability-check's table instead.
// - The CF classes (CGImage, CGColorSpace, CGContext, CGDataProvider) are declared without
//   `Sendable`. Not checked type by type against the SDK: where the SDK marks one Sendable, this is
//   stricter than Apple's (a false alarm here, never a missed error).
@_exported public import Foundation

/// CFString.h; https://developer.apple.com/documentation/corefoundation/cfstring
public typealias CFString = NSString
/// CFData.h; https://developer.apple.com/documentation/corefoundation/cfdata
public typealias CFData = NSData
/// CFData.h; https://developer.apple.com/documentation/corefoundation/cfmutabledata
public typealias CFMutableData = NSMutableData
/// CFDictionary.h; https://developer.apple.com/documentation/corefoundation/cfdictionary
public typealias CFDictionary = NSDictionary

private func standIn() -> Never { fatalError("SDK stand-in: type-checking only") }

/// CGColorSpace.h; https://developer.apple.com/documentation/coregraphics/cgcolorspace
public final class CGColorSpace {
    /// CGColorSpaceCreateWithName;
    /// https://developer.apple.com/documentation/coregraphics/cgcolorspace/init(name:)
    @available(iOS 9.0, macOS 10.5, *)
    public init?(name: CFString) { standIn() }

    /// kCGColorSpaceSRGB; https://developer.apple.com/documentation/coregraphics/cgcolorspace/srgb
    @available(iOS 9.0, macOS 10.5, *)
    public static var sRGB: CFString { standIn() }
}

/// CGColorSpace.h; https://developer.apple.com/documentation/coregraphics/cgcolorspacecreatedevicergb()
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { standIn() }

/// CGDataProvider.h; https://developer.apple.com/documentation/coregraphics/cgdataprovider
public final class CGDataProvider {
    /// CGDataProviderCreateWithCFData;
    /// https://developer.apple.com/documentation/coregraphics/cgdataprovider/init(data:)
    @available(iOS 2.0, macOS 10.4, *)
    public init?(data: CFData) { standIn() }
}

/// CGImage.h (CGImageAlphaInfo, uint32_t); https://developer.apple.com/documentation/coregraphics/cgimagealphainfo
public enum CGImageAlphaInfo: UInt32, Sendable {
    case none = 0
    case premultipliedLast = 1
    case premultipliedFirst = 2
    case last = 3
    case first = 4
    case noneSkipLast = 5
    case noneSkipFirst = 6
    case alphaOnly = 7
}

/// CGImage.h (CGBitmapInfo, uint32_t options); https://developer.apple.com/documentation/coregraphics/cgbitmapinfo
public struct CGBitmapInfo: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}

/// CGColorSpace.h (CGColorRenderingIntent, int32_t);
/// https://developer.apple.com/documentation/coregraphics/cgcolorrenderingintent
public enum CGColorRenderingIntent: Int32, Sendable {
    case defaultIntent = 0
    case absoluteColorimetric = 1
    case relativeColorimetric = 2
    case perceptual = 3
    case saturation = 4
}

/// CGImage.h; https://developer.apple.com/documentation/coregraphics/cgimage
public final class CGImage {
    /// CGImageCreate: `init(width:height:bitsPerComponent:bitsPerPixel:bytesPerRow:space:bitmapInfo:provider:`
    /// `decode:shouldInterpolate:intent:)` on https://developer.apple.com/documentation/coregraphics/cgimage
    public init?(
        width: Int, height: Int, bitsPerComponent: Int, bitsPerPixel: Int, bytesPerRow: Int, space: CGColorSpace,
        bitmapInfo: CGBitmapInfo, provider: CGDataProvider, decode: UnsafePointer<CGFloat>?, shouldInterpolate: Bool,
        intent: CGColorRenderingIntent
    ) { standIn() }

    /// CGImageGetWidth; https://developer.apple.com/documentation/coregraphics/cgimage/width
    public var width: Int { standIn() }
    /// CGImageGetHeight; https://developer.apple.com/documentation/coregraphics/cgimage/height
    public var height: Int { standIn() }
    /// CGImageGetAlphaInfo; https://developer.apple.com/documentation/coregraphics/cgimage/alphainfo
    public var alphaInfo: CGImageAlphaInfo { standIn() }
}

/// CGContext.h, CGBitmapContext.h; https://developer.apple.com/documentation/coregraphics/cgcontext
public final class CGContext {
    /// CGBitmapContextCreate as the CoreGraphics overlay imports it (bitmapInfo: UInt32);
    /// `init(data:width:height:bitsPerComponent:bytesPerRow:space:bitmapInfo:)` (UInt32) on
    /// https://developer.apple.com/documentation/coregraphics/cgcontext
    public init?(
        data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int, bytesPerRow: Int,
        space: CGColorSpace, bitmapInfo: UInt32
    ) { standIn() }

    /// CGBitmapContextCreate with CGBitmapInfo (not called by our files; declared because the SDK
    /// has it, so overload resolution sees the same two candidates);
    /// `init(data:width:height:bitsPerComponent:bytesPerRow:space:bitmapInfo:)` (CGBitmapInfo) on
    /// https://developer.apple.com/documentation/coregraphics/cgcontext
    public init?(
        data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int, bytesPerRow: Int,
        space: CGColorSpace?, bitmapInfo: CGBitmapInfo
    ) { standIn() }

    /// CGContextDrawImage / CGContextDrawTiledImage;
    /// https://developer.apple.com/documentation/coregraphics/cgcontext/draw(_:in:bytiling:)
    public func draw(_ image: CGImage, in rect: CGRect, byTiling: Bool = false) { standIn() }
}
