// Stand-in for Apple's UIKit, for `make portability` only: declarations without behaviour,
// exactly what the Apple-only files use, each transcribed from the UIKit header named beside it
// and the Apple documentation page cited (https://developer.apple.com/documentation/uikit/...).
// `NS_SWIFT_UI_ACTOR` in a header is `@MainActor` in Swift. Availability is written as Apple
// documents it; a Linux compiler does not enforce it (docs/platforms.md).
//
// Approximations, stated in docs/apple.md:
// - UIKit re-exports Foundation, which on Apple platforms re-exports ObjectiveC; here UIKit
//   re-exports Foundation and the ObjectiveC stand-in.
// - UIImage and UITraitCollection are declared without `Sendable`: where the SDK marks them
//   Sendable this is stricter than Apple's (a false alarm here, never a missed error).
// - UIResponder and UIView carry only what the files use; their superclass chain is kept.
@_exported public import CoreGraphics
@_exported public import Foundation
@_exported public import ObjectiveC

private func standIn() -> Never { fatalError("SDK stand-in: type-checking only") }

/// UIResponder.h: `UIKIT_EXTERN API_AVAILABLE(ios(2.0)) NS_SWIFT_UI_ACTOR @interface UIResponder : NSObject`;
/// https://developer.apple.com/documentation/uikit/uiresponder
@MainActor
@available(iOS 2.0, *)
open class UIResponder: NSObject {}

/// UIView.h: `UIKIT_EXTERN API_AVAILABLE(ios(2.0)) NS_SWIFT_UI_ACTOR @interface UIView : UIResponder
/// <…, UITraitEnvironment, …>`; https://developer.apple.com/documentation/uikit/uiview
@MainActor
@available(iOS 2.0, *)
open class UIView: UIResponder {
    /// UITraitCollection.h, `@protocol UITraitEnvironment`: `@property (nonatomic, readonly)
    /// UITraitCollection *traitCollection`;
    /// https://developer.apple.com/documentation/uikit/uitraitenvironment/traitcollection
    @available(iOS 8.0, *)
    open var traitCollection: UITraitCollection { standIn() }

    /// UIView.h, `UIView (UIViewAnimationWithBlocks)`: `+ (void)transitionWithView:(UIView *)view
    /// duration:(NSTimeInterval)duration options:(UIViewAnimationOptions)options animations:(void
    /// (^ __nullable)(void))animations completion:(void (^ __nullable)(BOOL finished))completion`;
    /// https://developer.apple.com/documentation/uikit/uiview/transition(with:duration:options:animations:completion:)
    @available(iOS 4.0, *)
    open class func transition(
        with view: UIView, duration: TimeInterval, options: UIView.AnimationOptions = [],
        animations: (() -> Void)?, completion: ((Bool) -> Void)? = nil
    ) { standIn() }

    /// UIView.h `typedef NS_OPTIONS(NSUInteger, UIViewAnimationOptions)`;
    /// https://developer.apple.com/documentation/uikit/uiview/animationoptions
    public struct AnimationOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// `UIViewAnimationOptionTransitionCrossDissolve = 5 << 20`;
        /// https://developer.apple.com/documentation/uikit/uiview/animationoptions/transitioncrossdissolve
        public static let transitionCrossDissolve = AnimationOptions(rawValue: 5 << 20)
    }
}

/// UIImageView.h: `UIKIT_EXTERN API_AVAILABLE(ios(2.0)) NS_SWIFT_UI_ACTOR @interface UIImageView : UIView`;
/// https://developer.apple.com/documentation/uikit/uiimageview
@MainActor
@available(iOS 2.0, *)
open class UIImageView: UIView {
    /// `@property (nullable, nonatomic, strong) UIImage *image`;
    /// https://developer.apple.com/documentation/uikit/uiimageview/image
    open var image: UIImage? {
        get { standIn() }
        set { standIn() }
    }
}

/// UITraitCollection.h: `@interface UITraitCollection : NSObject <NSCopying, NSSecureCoding>`;
/// https://developer.apple.com/documentation/uikit/uitraitcollection
@available(iOS 8.0, *)
open class UITraitCollection: NSObject {
    /// `@property (nonatomic, readonly) CGFloat displayScale`;
    /// https://developer.apple.com/documentation/uikit/uitraitcollection/displayscale
    open var displayScale: CGFloat { standIn() }
}

/// UIImage.h: `UIKIT_EXTERN API_AVAILABLE(ios(2.0)) @interface UIImage : NSObject <NSSecureCoding>`;
/// https://developer.apple.com/documentation/uikit/uiimage
@available(iOS 2.0, *)
open class UIImage: NSObject {
    /// `- (instancetype)initWithCGImage:(CGImageRef)cgImage scale:(CGFloat)scale
    /// orientation:(UIImageOrientation)orientation`;
    /// https://developer.apple.com/documentation/uikit/uiimage/init(cgimage:scale:orientation:)
    @available(iOS 4.0, *)
    public init(cgImage: CGImage, scale: CGFloat, orientation: UIImage.Orientation) { standIn() }

    /// `+ (nullable UIImage *)animatedImageWithImages:(NSArray<UIImage *> *)images
    /// duration:(NSTimeInterval)duration`;
    /// https://developer.apple.com/documentation/uikit/uiimage/animatedimage(with:duration:)
    @available(iOS 5.0, *)
    open class func animatedImage(with images: [UIImage], duration: TimeInterval) -> UIImage? { standIn() }

    /// UIImage.h `typedef NS_ENUM(NSInteger, UIImageOrientation)`;
    /// https://developer.apple.com/documentation/uikit/uiimage/orientation
    public enum Orientation: Int, Sendable {
        case up = 0
        case down = 1
        case left = 2
        case right = 3
        case upMirrored = 4
        case downMirrored = 5
        case leftMirrored = 6
        case rightMirrored = 7
    }
}
