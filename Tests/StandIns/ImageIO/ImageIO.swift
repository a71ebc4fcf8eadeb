// swift-format-ignore-file: AlwaysUseLowerCamelCase

// Stand-in for Apple's ImageIO, for `make portability` only: declarations without behaviour,
// exactly what the Apple-only files use, each transcribed from the header named beside it and the
// Apple documentation page cited (https://developer.apple.com/documentation/imageio/...). ImageIO's
// module re-exports CoreGraphics (ImageIO.h includes it), so this one does too. Availability is
// written as Apple documents it; a Linux compiler does not enforce it (docs/platforms.md).
@_exported public import CoreGraphics

private func standIn() -> Never { fatalError("SDK stand-in: type-checking only") }

/// CGImageSource.h; https://developer.apple.com/documentation/imageio/cgimagesource
public final class CGImageSource {}

/// CGImageDestination.h; https://developer.apple.com/documentation/imageio/cgimagedestination
public final class CGImageDestination {}

/// CGImageSource.h; https://developer.apple.com/documentation/imageio/cgimagesourcecreatewithdata(_:_:)
@available(iOS 4.0, macOS 10.4, *)
public func CGImageSourceCreateWithData(_ data: CFData, _ options: CFDictionary?) -> CGImageSource? { standIn() }

/// CGImageSource.h; https://developer.apple.com/documentation/imageio/cgimagesourcegetcount(_:)
@available(iOS 4.0, macOS 10.4, *)
public func CGImageSourceGetCount(_ isrc: CGImageSource) -> Int { standIn() }

/// CGImageSource.h; https://developer.apple.com/documentation/imageio/cgimagesourcecopypropertiesatindex(_:_:_:)
@available(iOS 4.0, macOS 10.4, *)
public func CGImageSourceCopyPropertiesAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?)
    -> CFDictionary?
{ standIn() }

/// CGImageSource.h; https://developer.apple.com/documentation/imageio/cgimagesourcecopyproperties(_:_:)
@available(iOS 4.0, macOS 10.4, *)
public func CGImageSourceCopyProperties(_ isrc: CGImageSource, _ options: CFDictionary?) -> CFDictionary? {
    standIn()
}

/// CGImageSource.h; https://developer.apple.com/documentation/imageio/cgimagesourcecreatethumbnailatindex(_:_:_:)
@available(iOS 4.0, macOS 10.4, *)
public func CGImageSourceCreateThumbnailAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?)
    -> CGImage?
{ standIn() }

/// CGImageDestination.h; https://developer.apple.com/documentation/imageio/cgimagedestinationcreatewithdata(_:_:_:_:)
@available(iOS 4.0, macOS 10.4, *)
public func CGImageDestinationCreateWithData(
    _ data: CFMutableData, _ type: CFString, _ count: Int, _ options: CFDictionary?
) -> CGImageDestination? { standIn() }

/// CGImageDestination.h; https://developer.apple.com/documentation/imageio/cgimagedestinationaddimage(_:_:_:)
@available(iOS 4.0, macOS 10.4, *)
public func CGImageDestinationAddImage(_ idst: CGImageDestination, _ image: CGImage, _ properties: CFDictionary?) {
    standIn()
}

/// CGImageDestination.h; https://developer.apple.com/documentation/imageio/cgimagedestinationfinalize(_:)
@available(iOS 4.0, macOS 10.4, *)
public func CGImageDestinationFinalize(_ idst: CGImageDestination) -> Bool { standIn() }

// Options and property keys: `let … : CFString` in Swift (CGImageSource.h, CGImageDestination.h,
// CGImageProperties.h); the page of each is https://developer.apple.com/documentation/imageio/<name, lowercased>.

/// CGImageSource.h; iOS 4.0, macOS 10.4.
@available(iOS 4.0, macOS 10.4, *)
public var kCGImageSourceShouldCache: CFString { standIn() }
/// CGImageSource.h; iOS 7.0, macOS 10.9.
@available(iOS 7.0, macOS 10.9, *)
public var kCGImageSourceShouldCacheImmediately: CFString { standIn() }
/// CGImageSource.h; iOS 4.0, macOS 10.4.
@available(iOS 4.0, macOS 10.4, *)
public var kCGImageSourceCreateThumbnailFromImageAlways: CFString { standIn() }
/// CGImageSource.h; iOS 4.0, macOS 10.4.
@available(iOS 4.0, macOS 10.4, *)
public var kCGImageSourceCreateThumbnailWithTransform: CFString { standIn() }
/// CGImageSource.h; iOS 4.0, macOS 10.4.
@available(iOS 4.0, macOS 10.4, *)
public var kCGImageSourceThumbnailMaxPixelSize: CFString { standIn() }
/// CGImageDestination.h; iOS 4.0, macOS 10.4.
@available(iOS 4.0, macOS 10.4, *)
public var kCGImageDestinationLossyCompressionQuality: CFString { standIn() }
/// CGImageProperties.h; iOS 4.0, macOS 10.4.
@available(iOS 4.0, macOS 10.4, *)
public var kCGImagePropertyPixelWidth: CFString { standIn() }
/// CGImageProperties.h; iOS 4.0, macOS 10.4.
@available(iOS 4.0, macOS 10.4, *)
public var kCGImagePropertyPixelHeight: CFString { standIn() }
/// CGImageProperties.h; iOS 4.0, macOS 10.4.
@available(iOS 4.0, macOS 10.4, *)
public var kCGImagePropertyGIFDictionary: CFString { standIn() }
/// CGImageProperties.h; iOS 4.0, macOS 10.4.
@available(iOS 4.0, macOS 10.4, *)
public var kCGImagePropertyGIFDelayTime: CFString { standIn() }
/// CGImageProperties.h; iOS 4.0, macOS 10.7.
@available(iOS 4.0, macOS 10.7, *)
public var kCGImagePropertyGIFUnclampedDelayTime: CFString { standIn() }
/// CGImageProperties.h; iOS 4.0, macOS 10.4.
@available(iOS 4.0, macOS 10.4, *)
public var kCGImagePropertyPNGDictionary: CFString { standIn() }
/// CGImageProperties.h; iOS 8.0, macOS 10.10.
@available(iOS 8.0, macOS 10.10, *)
public var kCGImagePropertyAPNGDelayTime: CFString { standIn() }
/// CGImageProperties.h; iOS 8.0, macOS 10.10.
@available(iOS 8.0, macOS 10.10, *)
public var kCGImagePropertyAPNGUnclampedDelayTime: CFString { standIn() }
/// CGImageProperties.h; https://developer.apple.com/documentation/imageio/kcgimagepropertywebpdictionary
@available(iOS 14.0, macOS 11.0, *)
public var kCGImagePropertyWebPDictionary: CFString { standIn() }
/// CGImageProperties.h; https://developer.apple.com/documentation/imageio/kcgimagepropertywebpdelaytime
@available(iOS 14.0, macOS 11.0, *)
public var kCGImagePropertyWebPDelayTime: CFString { standIn() }
/// CGImageProperties.h; https://developer.apple.com/documentation/imageio/kcgimagepropertywebpunclampeddelaytime
@available(iOS 14.0, macOS 11.0, *)
public var kCGImagePropertyWebPUnclampedDelayTime: CFString { standIn() }
/// CGImageProperties.h; https://developer.apple.com/documentation/imageio/kcgimagepropertyorientation
@available(iOS 4.0, macOS 10.4, *)
public var kCGImagePropertyOrientation: CFString { standIn() }
/// CGImageProperties.h; https://developer.apple.com/documentation/imageio/kcgimagepropertygifloopcount
@available(iOS 4.0, macOS 10.4, *)
public var kCGImagePropertyGIFLoopCount: CFString { standIn() }
/// CGImageProperties.h; https://developer.apple.com/documentation/imageio/kcgimagepropertyapngloopcount
@available(iOS 8.0, macOS 10.10, *)
public var kCGImagePropertyAPNGLoopCount: CFString { standIn() }
/// CGImageProperties.h; https://developer.apple.com/documentation/imageio/kcgimagepropertywebploopcount
@available(iOS 14.0, macOS 11.0, *)
public var kCGImagePropertyWebPLoopCount: CFString { standIn() }
/// CGImageProperties.h; https://developer.apple.com/documentation/imageio/kcgimagepropertyheicsdictionary
@available(iOS 13.0, macOS 10.15, *)
public var kCGImagePropertyHEICSDictionary: CFString { standIn() }
/// CGImageProperties.h; https://developer.apple.com/documentation/imageio/kcgimagepropertyheicsloopcount
@available(iOS 13.0, macOS 10.15, *)
public var kCGImagePropertyHEICSLoopCount: CFString { standIn() }
/// CGImageProperties.h; https://developer.apple.com/documentation/imageio/kcgimagepropertyheicsdelaytime
@available(iOS 13.0, macOS 10.15, *)
public var kCGImagePropertyHEICSDelayTime: CFString { standIn() }
/// CGImageProperties.h; https://developer.apple.com/documentation/imageio/kcgimagepropertyheicsunclampeddelaytime
@available(iOS 13.0, macOS 10.15, *)
public var kCGImagePropertyHEICSUnclampedDelayTime: CFString { standIn() }
