public import Foundation

/// Decides, from a response's headers, whether a client cache may keep it and
/// for how long, and how to revalidate it once stale (RFC 9111, as it applies
/// to a private cache of image bytes).
///
/// Pure: no I/O, no clock of its own (`now` is passed in). A `Sendable`
/// value, safe to share between threads.
///
/// Rules:
/// - only `200` responses are stored; `Cache-Control: no-store` and `Vary: *`
///   are never stored;
/// - freshness lifetime: `max-age` (less the `Age` the response already has),
///   else `s-maxage`, else `Expires` (measured from the response's `Date`
///   when present, so a skewed server clock does not matter), else
///   ``defaultLifetime``; an `Expires` that is not a date means "already
///   stale";
/// - `no-cache` (or `Pragma: no-cache` without a `Cache-Control`) is stored
///   but must be revalidated before every use; `private` is fine here, this
///   is a client cache;
/// - a response that could never be used without revalidation (stale on
///   arrival or `no-cache`) and has no validator (`ETag`, `Last-Modified`) is
///   not stored: it could only ever be downloaded again.
public struct CachePolicy: Sendable, Equatable {
    /// What to do with a response.
    public enum Decision: Sendable, Equatable {
        /// Keep it, fresh until `expiresAt`; with `requiresRevalidation`, it
        /// must be revalidated before every use whatever the date.
        case store(expiresAt: Date, requiresRevalidation: Bool)
        /// Do not keep it, for the reason given (for logs and tests).
        case doNotStore(reason: String)

        /// Whether the response is to be stored.
        public var isStore: Bool {
            if case .store = self { return true }
            return false
        }
    }

    /// Seven days: the lifetime of a response that says nothing about its own.
    public static let defaultLifetimeSeconds: TimeInterval = 7 * 24 * 60 * 60

    /// The freshness lifetime, in seconds, of a response without
    /// `Cache-Control` freshness or `Expires`. Default 7 days.
    public var defaultLifetime: TimeInterval

    /// Creates a policy.
    ///
    /// - Parameter defaultLifetime: seconds a response without freshness
    ///   information stays fresh (default 7 days; must not be negative).
    public init(defaultLifetime: TimeInterval = CachePolicy.defaultLifetimeSeconds) {
        precondition(defaultLifetime >= 0, "defaultLifetime must not be negative")
        self.defaultLifetime = defaultLifetime
    }

    /// Whether to store `response`, received at `now`, and until when.
    public func decision(for response: DataResponse, now: Date) -> Decision {
        guard response.statusCode == 200 else {
            return .doNotStore(reason: "status \(response.statusCode) is not 200")
        }
        let cacheControl = CacheControl(response.headers.combinedValue(for: "Cache-Control"))
        if cacheControl.noStore { return .doNotStore(reason: "Cache-Control: no-store") }
        if VaryHeader.containsWildcard(response.headers.combinedValue(for: "Vary")) {
            return .doNotStore(reason: "Vary: *")
        }
        let lifetime = freshnessLifetime(of: response, cacheControl: cacheControl, now: now)
        let pragmaNoCache =
            response.headers.combinedValue(for: "Cache-Control") == nil
            && (response.headers.combinedValue(for: "Pragma")?.lowercased().contains("no-cache") ?? false)
        let requiresRevalidation = cacheControl.noCache || pragmaNoCache
        let hasValidator = response.headers["ETag"] != nil || response.headers["Last-Modified"] != nil
        if (requiresRevalidation || lifetime <= 0) && !hasValidator {
            return .doNotStore(reason: "must be revalidated before use but has no ETag or Last-Modified")
        }
        return .store(expiresAt: now.addingTimeInterval(max(0, lifetime)), requiresRevalidation: requiresRevalidation)
    }

    /// The entry to store for `response` under `key`, or `nil` when
    /// ``decision(for:now:)`` says not to store it.
    public func entry(for response: DataResponse, key: String, now: Date) -> CachedEntry? {
        guard case .store(let expiresAt, let requiresRevalidation) = decision(for: response, now: now) else {
            return nil
        }
        return CachedEntry(
            key: key, url: response.url, statusCode: response.statusCode,
            contentType: response.headers["Content-Type"], etag: response.headers["ETag"],
            lastModified: response.headers["Last-Modified"],
            cacheControl: response.headers.combinedValue(for: "Cache-Control"),
            expires: response.headers["Expires"], storedAt: now, expiresAt: expiresAt,
            requiresRevalidation: requiresRevalidation, data: response.body)
    }

    /// The conditional headers that revalidate `entry`: `If-None-Match` from
    /// its `ETag`, `If-Modified-Since` from its `Last-Modified` (verbatim, as
    /// RFC 9110 recommends). Empty when it has no validator.
    public func revalidationHeaders(for entry: CachedEntry) -> HTTPFieldList {
        var headers = HTTPFieldList()
        headers["If-None-Match"] = entry.etag
        headers["If-Modified-Since"] = entry.lastModified
        return headers
    }

    /// `entry` updated by a `304 Not Modified` received at `now`: the 304's
    /// `Cache-Control`, `Expires`, `ETag` and `Last-Modified` replace the
    /// stored ones, and the freshness lifetime is computed again from the
    /// result (so a 304 with `max-age=600` makes the entry fresh for ten
    /// minutes from `now`; a 304 without freshness headers reuses the stored
    /// `Cache-Control`). The body is kept.
    ///
    /// - Returns: `nil` when `response` is not a 304, when its `ETag` names a
    ///   different representation than the stored one, or when the merged
    ///   headers forbid storing (e.g. the 304 says `no-store`): the entry
    ///   should then be dropped and the resource fetched again.
    public func refreshed(_ entry: CachedEntry, with response: DataResponse, now: Date) -> CachedEntry? {
        guard response.statusCode == 304 else { return nil }
        if let newTag = response.headers["ETag"], let oldTag = entry.etag,
            !EntityTag.weaklyMatches(newTag, oldTag)
        {
            return nil
        }
        var headers = entry.headers
        for name in ["Cache-Control", "Expires", "ETag", "Last-Modified", "Date", "Age", "Pragma", "Vary"] {
            if let value = response.headers.combinedValue(for: name) { headers[name] = value }
        }
        let merged = DataResponse(url: entry.url, statusCode: 200, headers: headers, body: entry.data)
        return self.entry(for: merged, key: entry.key, now: now)
    }

    /// Seconds the response stays fresh from when it was received; may be
    /// zero or negative (stale on arrival).
    private func freshnessLifetime(of response: DataResponse, cacheControl: CacheControl, now: Date) -> TimeInterval {
        let age =
            response.headers["Age"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { max(0, $0) } ?? 0
        if let maxAge = cacheControl.maxAge ?? cacheControl.sharedMaxAge {
            return TimeInterval(maxAge - age)
        }
        if let expires = response.headers["Expires"] {
            guard let expiresDate = HTTPDate.parse(expires) else { return 0 }
            // Measured from the server's own `Date` when it sent one, so a
            // skewed server clock does not matter; else from our clock.
            let date = response.headers["Date"].flatMap(HTTPDate.parse) ?? now
            return expiresDate.timeIntervalSince(date) - TimeInterval(age)
        }
        return defaultLifetime
    }
}
