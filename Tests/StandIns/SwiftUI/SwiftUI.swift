// swift-format-ignore-file: AlwaysUseLowerCamelCase

// Stand-in for Apple's SwiftUI, for `make portability` only: declarations without behaviour,
// exactly what the Apple-only files use, each transcribed from the Apple documentation page cited
// (https://developer.apple.com/documentation/swiftui/...; SwiftUI has no headers). Availability as
// Apple documents it; a Linux compiler does not enforce it (docs/platforms.md). Built twice by
// typecheck.sh: once beside the UIKit stand-in (the iOS view), once beside AppKit (macOS).
//
// Approximations, stated in docs/apple.md:
// - A modifier's opaque result (`some View`) is a stand-in type here: only its being a View counts.
// - State, Binding and Environment are declared without `Sendable`; where the SDK marks them
//   Sendable this is stricter than Apple's (a false alarm here, never a missed error).
// - SwiftUI re-exports CoreGraphics and Foundation (CGImage, CGFloat, TimeInterval in its API).
@_exported public import CoreGraphics
@_exported public import Foundation

private func standIn() -> Never { fatalError("SDK stand-in: type-checking only") }

/// `@MainActor @preconcurrency protocol View`; https://developer.apple.com/documentation/swiftui/view
@MainActor @preconcurrency
@available(iOS 13.0, macOS 10.15, *)
public protocol View {
    /// `associatedtype Body : View`; https://developer.apple.com/documentation/swiftui/view/body-8kl5o
    associatedtype Body: View
    /// `@ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }`;
    /// https://developer.apple.com/documentation/swiftui/view/body-swift.property
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// `extension Never : View`; https://developer.apple.com/documentation/swiftui/view (Conforming Types)
extension Never: View {
    public typealias Body = Never
    public var body: Never { standIn() }
}

/// The opaque result of a modifier (a stand-in of SwiftUI's `ModifiedContent`).
public struct _StandInModifiedContent<Content: View>: View {
    public var body: Never { standIn() }
}

/// `@resultBuilder struct ViewBuilder`; https://developer.apple.com/documentation/swiftui/viewbuilder
@resultBuilder
@available(iOS 13.0, macOS 10.15, *)
public struct ViewBuilder {
    /// `static func buildBlock() -> EmptyView`;
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock()
    public static func buildBlock() -> EmptyView { standIn() }
    /// `static func buildBlock<Content>(_ content: Content) -> Content where Content : View`;
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)
    public static func buildBlock<Content: View>(_ content: Content) -> Content { standIn() }
    /// `static func buildExpression<Content>(_ content: Content) -> Content where Content : View`;
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildexpression(_:)
    public static func buildExpression<Content: View>(_ content: Content) -> Content { standIn() }
    /// `static func buildEither<TrueContent, FalseContent>(first: TrueContent) ->
    /// _ConditionalContent<TrueContent, FalseContent> where TrueContent : View, FalseContent : View`;
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(first:)
    public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent)
        -> _ConditionalContent<TrueContent, FalseContent>
    { standIn() }
    /// `static func buildEither<TrueContent, FalseContent>(second: FalseContent) -> …`;
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(second:)
    public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent)
        -> _ConditionalContent<TrueContent, FalseContent>
    { standIn() }
}

/// `@frozen struct _ConditionalContent<TrueContent, FalseContent>`, a View where both are;
/// https://developer.apple.com/documentation/swiftui/_conditionalcontent
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View {
    public var body: Never { standIn() }
}

/// `@frozen struct EmptyView`; https://developer.apple.com/documentation/swiftui/emptyview
public struct EmptyView: View {
    public var body: Never { standIn() }
}

/// `@frozen struct Image`; https://developer.apple.com/documentation/swiftui/image
@available(iOS 13.0, macOS 10.15, *)
public struct Image: View {
    /// `init(decorative cgImage: CGImage, scale: CGFloat, orientation: Image.Orientation = .up)`;
    /// https://developer.apple.com/documentation/swiftui/image/init(decorative:scale:orientation:)
    public init(decorative cgImage: CGImage, scale: CGFloat, orientation: Image.Orientation = .up) { standIn() }

    /// `@frozen enum Orientation : UInt8`; https://developer.apple.com/documentation/swiftui/image/orientation
    public enum Orientation: UInt8, Sendable {
        case up, upMirrored, down, downMirrored, left, leftMirrored, right, rightMirrored
    }

    public var body: Never { standIn() }
}

extension View {
    /// `nonisolated func onAppear(perform action: (() -> Void)? = nil) -> some View`;
    /// https://developer.apple.com/documentation/swiftui/view/onappear(perform:)
    nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> some View {
        _StandInModifiedContent<Self>()
    }

    /// `nonisolated func onDisappear(perform action: (() -> Void)? = nil) -> some View`;
    /// https://developer.apple.com/documentation/swiftui/view/ondisappear(perform:)
    nonisolated public func onDisappear(perform action: (() -> Void)? = nil) -> some View {
        _StandInModifiedContent<Self>()
    }

    /// `nonisolated func onChange<V>(of value: V, perform action: @escaping (_ newValue: V) -> Void)
    /// -> some View where V : Equatable` (iOS 14, deprecated in iOS 17);
    /// https://developer.apple.com/documentation/swiftui/view/onchange(of:perform:)
    @available(iOS, introduced: 14.0, deprecated: 17.0)
    @available(macOS, introduced: 11.0, deprecated: 14.0)
    nonisolated public func onChange<V: Equatable>(of value: V, perform action: @escaping (_ newValue: V) -> Void)
        -> some View
    { _StandInModifiedContent<Self>() }

    /// `nonisolated func transition(_ t: AnyTransition) -> some View`;
    /// https://developer.apple.com/documentation/swiftui/view/transition(_:)-5h5h0
    nonisolated public func transition(_ t: AnyTransition) -> some View { _StandInModifiedContent<Self>() }
}

/// `@frozen struct AnyTransition`; https://developer.apple.com/documentation/swiftui/anytransition
public struct AnyTransition {
    /// `static let opacity: AnyTransition` (a computed property here: a stand-in has no value to
    /// store); https://developer.apple.com/documentation/swiftui/anytransition/opacity
    public static var opacity: AnyTransition { standIn() }
}

/// `@frozen struct Animation`; https://developer.apple.com/documentation/swiftui/animation
public struct Animation: Sendable {
    /// `static let `default`: Animation` (computed here, as `AnyTransition.opacity`);
    /// https://developer.apple.com/documentation/swiftui/animation/default
    public static var `default`: Animation { standIn() }
    /// `static func easeIn(duration: TimeInterval) -> Animation`;
    /// https://developer.apple.com/documentation/swiftui/animation/easein(duration:)
    public static func easeIn(duration: TimeInterval) -> Animation { standIn() }
}

/// `func withAnimation<Result>(_ animation: Animation? = .default, _ body: () throws -> Result) rethrows
/// -> Result`; https://developer.apple.com/documentation/swiftui/withanimation(_:_:)
@available(iOS 13.0, macOS 10.15, *)
public func withAnimation<Result>(_ animation: Animation? = .default, _ body: () throws -> Result) rethrows -> Result {
    standIn()
}

/// `protocol DynamicProperty`; https://developer.apple.com/documentation/swiftui/dynamicproperty
public protocol DynamicProperty {}

/// `@frozen @propertyWrapper struct State<Value>`; https://developer.apple.com/documentation/swiftui/state
@propertyWrapper
@available(iOS 13.0, macOS 10.15, *)
public struct State<Value>: DynamicProperty {
    /// `init(wrappedValue value: Value)`; https://developer.apple.com/documentation/swiftui/state/init(wrappedvalue:)
    public init(wrappedValue value: Value) { standIn() }
    /// `init(initialValue value: Value)`; https://developer.apple.com/documentation/swiftui/state/init(initialvalue:)
    public init(initialValue value: Value) { standIn() }
    /// `var wrappedValue: Value { get nonmutating set }`;
    /// https://developer.apple.com/documentation/swiftui/state/wrappedvalue
    public var wrappedValue: Value {
        get { standIn() }
        nonmutating set { standIn() }
    }
    /// `var projectedValue: Binding<Value> { get }`;
    /// https://developer.apple.com/documentation/swiftui/state/projectedvalue
    public var projectedValue: Binding<Value> { standIn() }
}

/// `@frozen @propertyWrapper @dynamicMemberLookup struct Binding<Value>`;
/// https://developer.apple.com/documentation/swiftui/binding
@propertyWrapper
@available(iOS 13.0, macOS 10.15, *)
public struct Binding<Value> {
    /// `init(get: @escaping () -> Value, set: @escaping (Value) -> Void)`;
    /// https://developer.apple.com/documentation/swiftui/binding/init(get:set:)-6g3d5
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) { standIn() }

    /// `var wrappedValue: Value { get nonmutating set }`;
    /// https://developer.apple.com/documentation/swiftui/binding/wrappedvalue
    public var wrappedValue: Value {
        get { standIn() }
        nonmutating set { standIn() }
    }
}

/// `@frozen @propertyWrapper struct Environment<Value>`; https://developer.apple.com/documentation/swiftui/environment
@propertyWrapper
@available(iOS 13.0, macOS 10.15, *)
public struct Environment<Value>: DynamicProperty {
    /// `init(_ keyPath: KeyPath<EnvironmentValues, Value>)`;
    /// https://developer.apple.com/documentation/swiftui/environment/init(_:)-8slkf
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { standIn() }
    /// `var wrappedValue: Value { get }`; https://developer.apple.com/documentation/swiftui/environment/wrappedvalue
    public var wrappedValue: Value { standIn() }
}

/// `struct EnvironmentValues`; https://developer.apple.com/documentation/swiftui/environmentvalues
public struct EnvironmentValues {
    /// `var displayScale: CGFloat { get set }`;
    /// https://developer.apple.com/documentation/swiftui/environmentvalues/displayscale
    public var displayScale: CGFloat {
        get { standIn() }
        set { standIn() }
    }
}
