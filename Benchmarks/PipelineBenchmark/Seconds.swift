/// Durations as seconds, the unit every figure here is computed in.
enum Seconds {
    static func of(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func since(_ start: ContinuousClock.Instant) -> Double { of(ContinuousClock.now - start) }
}
