// Stand-in for Apple's AppKit, for `make portability` only: declarations without behaviour,
// exactly what the Apple-only files use, each transcribed from the AppKit header named beside it
// and the Apple documentation page cited (https://developer.apple.com/documentation/appkit/...).
// `NS_SWIFT_UI_ACTOR` in a header is `@MainActor` in Swift. Availability is written as Apple
// documents it; a Linux compiler does not enforce it (docs/platforms.md).
//
// Approximations, stated in docs/apple.md: AppKit re-exports Foundation (and, through it on Apple
// platforms, ObjectiveC): here Foundation and the ObjectiveC stand-in. NSImage is declared without
// `Sendable` (stricter than an SDK that marks it Sendable).
@_exported public import CoreGraphics
@_exported public import Foundation
@_exported public import ObjectiveC

private func standIn() -> Never { fatalError("SDK stand-in: type-checking only") }

/// NSResponder.h: `APPKIT_EXTERN NS_SWIFT_UI_ACTOR @interface NSResponder : NSObject <NSCoding>`;
/// https://developer.apple.com/documentation/appkit/nsresponder
@MainActor
@available(macOS 10.0, *)
open class NSResponder: NSObject {}

/// NSView.h: `@interface NSView : NSResponder`; https://developer.apple.com/documentation/appkit/nsview
@MainActor
@available(macOS 10.0, *)
open class NSView: NSResponder {}

/// NSControl.h: `@interface NSControl : NSView`; https://developer.apple.com/documentation/appkit/nscontrol
@MainActor
@available(macOS 10.0, *)
open class NSControl: NSView {}

/// NSImageView.h: `@interface NSImageView : NSControl <NSAccessibilityImage, NSMenuItemValidation>`;
/// https://developer.apple.com/documentation/appkit/nsimageview
@MainActor
@available(macOS 10.0, *)
open class NSImageView: NSControl {
    /// `@property (nullable, strong) NSImage *image`;
    /// https://developer.apple.com/documentation/appkit/nsimageview/image
    open var image: NSImage? {
        get { standIn() }
        set { standIn() }
    }
}

/// NSImage.h: `@interface NSImage : NSObject <NSCopying, NSSecureCoding, NSPasteboardReading,
/// NSPasteboardWriting>`; https://developer.apple.com/documentation/appkit/nsimage
@available(macOS 10.0, *)
open class NSImage: NSObject {
    /// `- (instancetype)initWithCGImage:(CGImageRef)cgImage size:(NSSize)size` ("NSZeroSize: use
    /// the pixel size of the CGImage"); https://developer.apple.com/documentation/appkit/nsimage/init(cgimage:size:)
    @available(macOS 10.6, *)
    public init(cgImage: CGImage, size: NSSize) { standIn() }
}
