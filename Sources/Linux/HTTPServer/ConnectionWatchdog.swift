import Synchronization
import WebPBridge

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One TCP connection as the watchdog sees it: its socket and the time by
/// which the request being received must be complete (0: no deadline).
/// Also keeps the client's address as text, worked out once per connection
/// rather than for each of its requests. The deadline is an atomic word: it
/// is set twice for every request, and the sweep takes it back to 0 only if
/// it is still the deadline it judged (compare-and-exchange).
final class WatchedConnection: Sendable {
    let socket: Int32
    let deadline: Atomic<UInt64>
    let remoteAddress: String?

    init(socket: Int32, deadline: UInt64, remoteAddress: String? = nil) {
        self.socket = socket
        self.deadline = Atomic(deadline)
        self.remoteAddress = remoteAddress
    }
}

/// Enforces ``HTTPServer/Configuration/Limits-swift.struct/requestReceiveTimeout``.
///
/// libmicrohttpd's own timeout is an idle timeout: every byte received
/// resets it, so a client sending a byte a second would hold a connection
/// (and a slot of the connection limit) forever. The watchdog gives each
/// request a deadline for arriving completely, and shuts down the socket of
/// a connection that misses it; libmicrohttpd then sees end-of-stream and
/// closes the connection itself.
///
/// Safety of `shutdown(2)` on a socket libmicrohttpd owns: the connection is
/// registered when libmicrohttpd reports it started and unregistered when it
/// reports it closed, which it does before closing the socket; both and the
/// sweep hold `connections`' lock, so the watchdog never touches a socket
/// number that was closed and reused.
///
/// It also sheds idle connections when the server is crowded: with
/// `crowdedCount` connections or more open, a connection waiting for a
/// request longer than `crowdedIdleTimeout` is shut down, so clients that
/// open connections and send nothing cannot keep everyone else waiting in
/// the listen queue.
final class ConnectionWatchdog: Sendable {
    /// The open connections, and the tests waiting for their count.
    private struct Connections: WaitableState {
        var open: [ObjectIdentifier: WatchedConnection] = [:]
        var waiters = StateWaiters<Connections>()
    }

    private let connections = Lock(Connections())
    private let receiveTimeout: UInt64
    private let crowdedCount: Int
    private let crowdedIdleTimeout: UInt64
    /// How long a connection waits for a request before the sweep asks whether its client half-closed.
    private let halfClosedCheckAfter: UInt64 = 1_000_000_000
    private let sweeps = Lock<UInt64>(0)

    init(receiveTimeout: Duration, crowdedCount: Int = .max, crowdedIdleTimeout: Duration = .seconds(2)) {
        self.receiveTimeout = MonotonicClock.nanoseconds(of: receiveTimeout)
        self.crowdedCount = crowdedCount
        self.crowdedIdleTimeout = MonotonicClock.nanoseconds(of: crowdedIdleTimeout)
    }

    /// Starts watching a new connection, whose first request is due now.
    func connectionStarted(socket: Int32, remoteAddress: String?) -> WatchedConnection {
        let connection = WatchedConnection(
            socket: socket, deadline: MonotonicClock.nanoseconds() + receiveTimeout, remoteAddress: remoteAddress)
        connections.withLockWakingWaiters { $0.open[ObjectIdentifier(connection)] = connection }
        return connection
    }

    func connectionClosed(_ connection: WatchedConnection) {
        _ = connections.withLockWakingWaiters { $0.open.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    /// Returns once the number of open connections (started and not yet
    /// closed, as libmicrohttpd reports them) satisfies `condition`, woken by
    /// each connection opening or closing.
    func waitUntilOpenCount(_ condition: @escaping @Sendable (Int) -> Bool) async {
        await connections.wait { condition($0.open.count) }
    }

    /// The connection's request arrived: no deadline while it is handled.
    func requestReceived(on connection: WatchedConnection) {
        connection.deadline.store(0, ordering: .relaxed)
    }

    /// The connection's response was sent: the next request is due.
    func requestFinished(on connection: WatchedConnection) {
        let due = MonotonicClock.nanoseconds() + receiveTimeout
        connection.deadline.store(due, ordering: .relaxed)
    }

    /// Shuts down every connection whose deadline passed; when crowded,
    /// every connection waiting for a request longer than the crowded idle
    /// timeout (it has been waiting since its deadline less the receive
    /// timeout); and, every tenth sweep, every connection waiting for a
    /// request longer than a second whose client has closed its sending
    /// side.
    ///
    /// libmicrohttpd goes on waiting for the rest of an unfinished request
    /// (a partial line, a head without its empty line) after the client has
    /// half-closed, until the idle timeout: 30 s of a connection slot for
    /// bytes that can never come. A connection waiting that long holds no
    /// complete request (libmicrohttpd answers those at once), so a
    /// non-blocking `MSG_PEEK` read of 0 bytes means the request can never
    /// be completed.
    func sweep() {
        let now = MonotonicClock.nanoseconds()
        let checkHalfClosed = sweeps.withLock { count in
            count &+= 1
            return count % 10 == 0
        }
        connections.withLock { state in
            let crowded = state.open.count >= crowdedCount
            for connection in state.open.values {
                switch verdict(for: connection, now: now, crowded: crowded, checkHalfClosed: checkHalfClosed) {
                case .keep: continue
                case .askIfHalfClosed: guard Self.peerClosedItsSide(connection.socket) else { continue }
                case .shutDown: break
                }
                _ = shutdown(connection.socket, Int32(SHUT_RDWR))
            }
        }
    }

    private enum SweepVerdict { case keep, askIfHalfClosed, shutDown }

    /// What the sweep does with `connection`. A deadline that passed is
    /// cleared (so the connection is shut down once) unless a request
    /// changed it meanwhile, which then decides.
    private func verdict(for connection: WatchedConnection, now: UInt64, crowded: Bool, checkHalfClosed: Bool)
        -> SweepVerdict
    {
        let deadline = connection.deadline.load(ordering: .relaxed)
        guard deadline != 0 else { return .keep }
        let waitingSince = deadline &- receiveTimeout
        let shed = crowded && waitingSince &+ crowdedIdleTimeout < now
        if deadline < now || shed {
            let cleared = connection.deadline.compareExchange(expected: deadline, desired: 0, ordering: .relaxed)
            return cleared.exchanged ? .shutDown : .keep
        }
        return checkHalfClosed && waitingSince &+ halfClosedCheckAfter < now ? .askIfHalfClosed : .keep
    }

    /// The client sent end-of-stream and nothing is left unread.
    private static func peerClosedItsSide(_ socket: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
    }

    /// Sweeps every 100 ms on `threads`, running `also` after each sweep,
    /// until the returned task is cancelled.
    func startSweeping(on threads: WorkerThreads, also: @escaping @Sendable () -> Void = {}) -> Task<Void, Never> {
        Task(executorPreference: threads) { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                sweep()
                also()
            }
        }
    }
}
