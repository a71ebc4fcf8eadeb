// swift-format-ignore-file: AlwaysUseLowerCamelCase, TypeNamesShouldBeCapitalized

// Stand-in for the part of Apple's Darwin module that the `#if canImport(Darwin)` branches use,
// for `make portability` only. With it importable, `canImport(Darwin)` holds, so the Darwin branch
// of a file that tests Darwin first (Lock, WorkerThreads) is compiled instead of the Glibc one.
// Darwin also holds POSIX; here that part is Glibc's, re-exported (an approximation: its
// declarations are Linux's, and a file that tests Glibc first still compiles its Glibc branch).
// Each declaration below is transcribed from the header named beside it and Apple's page.
@_exported public import Glibc

/// os/lock.h: `typedef struct os_unfair_lock_s { uint32_t _os_unfair_lock_opaque; } os_unfair_lock`;
/// a C struct of trivial fields, so Sendable when imported;
/// https://developer.apple.com/documentation/os/os_unfair_lock
@available(iOS 10.0, macOS 10.12, *)
public struct os_unfair_lock_s: Sendable {
    public var _os_unfair_lock_opaque: UInt32
    public init() { _os_unfair_lock_opaque = 0 }
    public init(_os_unfair_lock_opaque: UInt32) { self._os_unfair_lock_opaque = _os_unfair_lock_opaque }
}

/// os/lock.h; https://developer.apple.com/documentation/os/os_unfair_lock
@available(iOS 10.0, macOS 10.12, *)
public typealias os_unfair_lock = os_unfair_lock_s

/// os/lock.h: `typedef struct os_unfair_lock_s *os_unfair_lock_t`;
/// https://developer.apple.com/documentation/os/os_unfair_lock_t
@available(iOS 10.0, macOS 10.12, *)
public typealias os_unfair_lock_t = UnsafeMutablePointer<os_unfair_lock_s>

/// os/lock.h: `void os_unfair_lock_lock(os_unfair_lock_t lock)`;
/// https://developer.apple.com/documentation/os/os_unfair_lock_lock
@available(iOS 10.0, macOS 10.12, *)
public func os_unfair_lock_lock(_ lock: os_unfair_lock_t) { fatalError("SDK stand-in: type-checking only") }

/// os/lock.h: `void os_unfair_lock_unlock(os_unfair_lock_t lock)`;
/// https://developer.apple.com/documentation/os/os_unfair_lock_unlock
@available(iOS 10.0, macOS 10.12, *)
public func os_unfair_lock_unlock(_ lock: os_unfair_lock_t) { fatalError("SDK stand-in: type-checking only") }

/// pthread/pthread.h: `__API_AVAILABLE(macos(10.6), ios(3.2)) int pthread_setname_np(const char*)`
/// (Apple's takes only a name and names the calling thread; glibc's takes a thread too); recent SDK
/// headers add `__swift_attr__("@_unavailableFromAsync(message: ...)")`, kept here. Apple's man page:
/// https://opensource.apple.com/source/libpthread/libpthread-454.40.3/man/pthread_setname_np.3.auto.html
@available(iOS 3.2, macOS 10.6, *)
@_unavailableFromAsync(message: "Thread lifecycle is owned by Swift Concurrency runtime")
public func pthread_setname_np(_ name: UnsafePointer<CChar>) -> Int32 {
    fatalError("SDK stand-in: type-checking only")
}
