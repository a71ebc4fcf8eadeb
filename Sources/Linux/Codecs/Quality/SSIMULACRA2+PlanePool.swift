extension SSIMULACRA2 {
    /// Plane memory kept from one scorer for the next, up to a byte bound.
    ///
    /// A quality search makes a ``Scorer``: 79 bytes a pixel of planes
    /// (its ``Reference`` and its workspace), about 30 MB for a 750×500
    /// variant. Made fresh for every search, every page of them may be
    /// faulted in and cleared by the kernel again: an origin making only
    /// WebP searches on the demo photos spent 5.6–9% more CPU a search that
    /// way (docs/benchmarks.md; glibc keeps freed memory of that size only
    /// once a larger block, such as libaom's, has been freed). A scorer
    /// made with a pool takes its two buffers from it when one of the right
    /// size is kept (``Lease``), and gives them back when it is freed.
    ///
    /// Bounds:
    /// - the pool keeps at most ``capacityBytes``; a buffer that does not
    ///   fit beside those kept is freed, never kept beyond the bound, and
    ///   the oldest kept buffers are freed first to make room for a newer
    ///   one (so the pool follows the sizes being asked for);
    /// - a buffer is handed out only for a request it exceeds by at most a
    ///   sixteenth, so a scorer never holds much more than its size says
    ///   (``ImageTransformer``'s cost model counts that sixteenth; a
    ///   quarter reused more on the demo photos, whose 750 px variants have
    ///   469 to 600 rows, but its 20 bytes a pixel would have been charged
    ///   to every search: docs/benchmarks.md);
    /// - ``drain(_:)`` frees kept buffers at once: the origin drains the
    ///   pool when a variant needs the memory (its kept planes count
    ///   against its work-in-flight share).
    ///
    /// Thread-safe: one `Lock` guards the kept buffers; a buffer is owned
    /// by one scorer at a time.
    public final class PlanePool: Sendable {
        /// One allocation of `capacity` floats. Owned by the pool while
        /// kept, by one scorer while taken.
        struct Buffer: @unchecked Sendable {
            let base: UnsafeMutablePointer<Float>
            let capacity: Int

            var bytes: Int { capacity * MemoryLayout<Float>.stride }

            /// A new buffer of `capacity` floats (at least one), zeroed.
            static func allocate(_ capacity: Int) -> Buffer {
                let capacity = max(1, capacity)
                let base = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
                base.initialize(repeating: 0, count: capacity)
                return Buffer(base: base, capacity: capacity)
            }

            func free() { base.deallocate() }
        }

        /// One buffer held for as long as this lease lives: taken from
        /// `pool` (or allocated when there is none), given back to it (or
        /// freed) at the end. What a scorer's workspace and its reference's
        /// planes each hold. Its floats are written by whoever holds it,
        /// before the planes are shared, so `@unchecked Sendable`.
        final class Lease: @unchecked Sendable {
            private let buffer: Buffer
            private let pool: PlanePool?

            init(floats: Int, from pool: PlanePool?) {
                self.pool = pool
                buffer = pool?.take(floats) ?? .allocate(floats)
            }

            deinit {
                if let pool { pool.give(buffer) } else { buffer.free() }
            }

            /// The plane starting `offset` floats in.
            func plane(_ offset: Int) -> UnsafeMutablePointer<Float> { buffer.base + offset }
        }

        private struct State {
            /// Oldest first.
            var kept: [Buffer] = []
            var keptBytes = 0
            var reused = 0

            /// Removes the oldest kept buffers while more than `bytes` are
            /// kept, and returns them (to be freed outside the lock).
            mutating func removeOldest(keepingAtMost bytes: Int) -> [Buffer] {
                var removed: [Buffer] = []
                while keptBytes > bytes, !kept.isEmpty {
                    let oldest = kept.removeFirst()
                    keptBytes -= oldest.bytes
                    removed.append(oldest)
                }
                return removed
            }
        }

        /// The most bytes kept at once.
        public let capacityBytes: Int
        private let state = Lock(State())

        /// A pool keeping at most `capacityBytes` (none when 0 or less).
        public init(capacityBytes: Int) {
            self.capacityBytes = max(0, capacityBytes)
        }

        deinit {
            state.withLock { state in
                for buffer in state.kept { buffer.free() }
            }
        }

        /// Bytes kept now.
        public var keptBytes: Int { state.withLock { $0.keptBytes } }

        /// Buffers kept now.
        public var keptCount: Int { state.withLock { $0.kept.count } }

        /// How many buffers have been handed out again instead of allocated.
        public var reuseCount: Int { state.withLock { $0.reused } }

        /// A buffer of at least `floats` and at most a sixteenth more: a
        /// kept one (its contents are whatever its last scorer left), the
        /// smallest that fits, or a new one.
        func take(_ floats: Int) -> Buffer {
            let floats = max(1, floats)
            let limit = floats + floats / 16
            let found = state.withLock { state -> Buffer? in
                let fitting = state.kept.indices.filter { (floats...limit).contains(state.kept[$0].capacity) }
                guard let best = fitting.min(by: { state.kept[$0].capacity < state.kept[$1].capacity }) else {
                    return nil
                }
                let buffer = state.kept.remove(at: best)
                state.keptBytes -= buffer.bytes
                state.reused += 1
                return buffer
            }
            return found ?? Buffer.allocate(floats)
        }

        /// Keeps `buffer` for the next scorer, freeing the oldest kept ones
        /// to make room; frees `buffer` itself when it is larger than the
        /// whole pool.
        func give(_ buffer: Buffer) {
            let freed = state.withLock { state -> [Buffer] in
                guard buffer.bytes <= capacityBytes else { return [buffer] }
                let freed = state.removeOldest(keepingAtMost: capacityBytes - buffer.bytes)
                state.kept.append(buffer)
                state.keptBytes += buffer.bytes
                return freed
            }
            for buffer in freed { buffer.free() }
        }

        /// Frees kept buffers, oldest first, until at least `bytes` have
        /// been freed or none is left; returns the bytes freed.
        @discardableResult
        public func drain(_ bytes: Int) -> Int {
            let freed = state.withLock { state in
                state.removeOldest(keepingAtMost: bytes >= state.keptBytes ? 0 : state.keptBytes - bytes)
            }
            for buffer in freed { buffer.free() }
            return freed.reduce(0) { $0 + $1.bytes }
        }
    }
}
