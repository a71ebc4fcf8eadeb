// swift-format-ignore-file: AlwaysUseLowerCamelCase, TypeNamesShouldBeCapitalized

// Stand-in for the Objective-C runtime's associated objects (objc/runtime.h), for
// `make portability` only: declarations without behaviour, exactly what the Apple-only files use,
// each transcribed from the header named beside it and the Apple documentation page cited
// (https://developer.apple.com/documentation/objectivec/...). On Apple platforms Foundation
// re-exports ObjectiveC; here the UIKit and AppKit stand-ins re-export this module instead.

private func standIn() -> Never { fatalError("SDK stand-in: type-checking only") }

/// objc/runtime.h `typedef OBJC_ENUM(uintptr_t, objc_AssociationPolicy)`;
/// https://developer.apple.com/documentation/objectivec/objc_associationpolicy
public enum objc_AssociationPolicy: UInt, Sendable {
    /// OBJC_ASSOCIATION_ASSIGN = 0
    case OBJC_ASSOCIATION_ASSIGN = 0
    /// OBJC_ASSOCIATION_RETAIN_NONATOMIC = 1;
    /// https://developer.apple.com/documentation/objectivec/objc_associationpolicy/objc_association_retain_nonatomic
    case OBJC_ASSOCIATION_RETAIN_NONATOMIC = 1
    /// OBJC_ASSOCIATION_COPY_NONATOMIC = 3
    case OBJC_ASSOCIATION_COPY_NONATOMIC = 3
    /// OBJC_ASSOCIATION_RETAIN = 01401
    case OBJC_ASSOCIATION_RETAIN = 0o1401
    /// OBJC_ASSOCIATION_COPY = 01403
    case OBJC_ASSOCIATION_COPY = 0o1403
}

/// objc/runtime.h `objc_setAssociatedObject(id object, const void *key, id value, objc_AssociationPolicy policy)`;
/// https://developer.apple.com/documentation/objectivec/objc_setassociatedobject(_:_:_:_:)
@available(iOS 3.1, macOS 10.6, *)
public func objc_setAssociatedObject(
    _ object: Any, _ key: UnsafeRawPointer, _ value: Any?, _ policy: objc_AssociationPolicy
) { standIn() }

/// objc/runtime.h `id objc_getAssociatedObject(id object, const void *key)`;
/// https://developer.apple.com/documentation/objectivec/objc_getassociatedobject(_:_:)
@available(iOS 3.1, macOS 10.6, *)
public func objc_getAssociatedObject(_ object: Any, _ key: UnsafeRawPointer) -> Any? { standIn() }
