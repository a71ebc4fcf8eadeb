/// How an animation's frames, each with its own delay, are played by a
/// player that shows every frame for the same time (`UIImage.animatedImage(with:duration:)`):
/// each frame repeated for as many equal slots as its delay lasts.
///
/// The slot is the delays' greatest common divisor, so the timing is exact,
/// unless that needs more than ``maximumSlots`` slots; then the slot is the
/// total over ``maximumSlots`` and each delay is rounded to whole slots (at
/// least one), so a hostile file of odd delays cannot multiply the frame
/// list. The slots hold frame indices, not images: repeats cost a reference.
public struct AnimationTimeline: Sendable, Equatable {
    /// The bound on slots when the delays do not divide evenly into fewer.
    public static let maximumSlots = 1_000

    /// For each slot, the index of the frame it shows.
    public let frameIndices: [Int]
    /// The time the whole animation takes, in milliseconds (the sum of the
    /// delays, each at least 1 ms).
    public let totalMilliseconds: Int

    /// The timeline of frames shown for `delays` milliseconds each (a delay
    /// below 1 ms counts as 1 ms). Empty `delays`: no slots.
    public init(delaysMilliseconds delays: [Int]) {
        let clamped = delays.map { min(max($0, 1), 3_600_000) }
        let total = clamped.reduce(0, +)
        totalMilliseconds = total
        guard !clamped.isEmpty else {
            frameIndices = []
            return
        }
        let divisor = clamped.reduce(0) { Self.gcd($0, $1) }
        var indices: [Int] = []
        if total / divisor <= Self.maximumSlots {
            indices.reserveCapacity(total / divisor)
            for (index, delay) in clamped.enumerated() {
                indices += repeatElement(index, count: delay / divisor)
            }
        } else {
            let slot = Double(total) / Double(Self.maximumSlots)
            for (index, delay) in clamped.enumerated() {
                indices += repeatElement(index, count: max(1, Int((Double(delay) / slot).rounded())))
            }
        }
        frameIndices = indices
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
