public import Foundation
import WebPBridge

/// Finds the lowest encoder quality whose output reaches a target score
/// (``SSIMULACRA2`` against the image that was encoded), in at most
/// ``maxEncodes`` encodes, never above a ceiling (the fixed default).
///
/// The first encode is at the ceiling: if it misses the target, it is the
/// answer (the variant is what a fixed quality gives, never bigger). Its
/// score then predicts the quality that reaches the target, assuming the
/// score falls linearly with quality at ``slope`` points a step (measured;
/// docs/benchmarks.md). Once one quality passes and one fails, the next is
/// interpolated between them, kept in the middle half of the interval (so
/// a bad guess still halves it, as bisection would). The search stops when
/// a passing encode is within ``tolerance`` of the target, when no quality
/// lies between a pass and a fail, or after ``maxEncodes``; the passing
/// encode with the fewest bytes is chosen.
public struct QualitySearch: Sendable, Equatable {
    /// One encode and its score.
    public struct Trial: Sendable {
        public var data: Data
        public var score: Double

        public init(data: Data, score: Double) {
            self.data = data
            self.score = score
        }
    }

    /// What the search chose.
    public struct Choice: Sendable {
        /// The encoder quality chosen.
        public var quality: Int
        /// Its bytes.
        public var data: Data
        /// Its score.
        public var score: Double
        /// Encodes made, at most ``QualitySearch/maxEncodes``.
        public var encodes: Int
    }

    /// The most encodes one search makes.
    public static let maxEncodes = 4
    /// A passing encode at most this many points above the target ends the
    /// search: close enough that another encode would save little (on the
    /// Kodak photos a point is 1–2 WebP quality steps, about 2% of bytes).
    public static let tolerance = 2.5

    /// The score to reach.
    public var target: Double
    /// The qualities searched; the upper bound is tried first.
    public var qualities: ClosedRange<Int>
    /// Score points per quality step the predictor assumes (positive).
    public var slope: Double

    /// Creates a search for `target` over `qualities` (within 1–100).
    public init(target: Double, qualities: ClosedRange<Int>, slope: Double) {
        precondition(qualities.lowerBound >= 1 && qualities.upperBound <= 100 && slope > 0)
        self.target = target
        self.qualities = qualities
        self.slope = slope
    }

    /// Whether a `width`×`height` image can be scored (``SSIMULACRA2``
    /// needs 8 pixels a side). A smaller one's trials are scored NaN, which
    /// never reaches a target, so its first encode, at the ceiling, is chosen.
    public static func canScore(width: Int, height: Int) -> Bool {
        width >= SSIMULACRA2.minimumSide && height >= SSIMULACRA2.minimumSide
    }

    /// Runs the search, calling `trial` for each quality it tries.
    ///
    /// - Throws: What `trial` throws.
    public func run<Failure: Error>(_ trial: (Int) throws(Failure) -> Trial) throws(Failure) -> Choice {
        let ceiling = qualities.upperBound
        let first = try trial(ceiling)
        var encodes = 1
        var best = Choice(quality: ceiling, data: first.data, score: first.score, encodes: 1)
        guard first.score >= target else { return best }
        var pass = (quality: ceiling, score: first.score)
        var fail: (quality: Int, score: Double)? = nil
        while encodes < Self.maxEncodes, pass.score - target > Self.tolerance {
            let low = fail?.quality ?? qualities.lowerBound - 1
            guard pass.quality - low > 1 else { break }
            let quality = next(pass: pass, fail: fail, low: low)
            let result = try trial(quality)
            encodes += 1
            if result.score >= target {
                pass = (quality, result.score)
                if result.data.count <= best.data.count {
                    best = Choice(quality: quality, data: result.data, score: result.score, encodes: encodes)
                }
            } else {
                fail = (quality, result.score)
            }
        }
        best.encodes = encodes
        return best
    }

    /// The next quality to try: strictly between `low` and `pass`.
    private func next(pass: (quality: Int, score: Double), fail: (quality: Int, score: Double)?, low: Int) -> Int {
        let estimate: Double
        if let fail, fail.score < pass.score {
            // Secant between the bracket's ends.
            let fraction = (target - fail.score) / (pass.score - fail.score)
            let span = Double(pass.quality - fail.quality)
            estimate = Double(fail.quality) + span * min(0.75, max(0.25, fraction))
        } else if fail != nil {
            estimate = Double(low + pass.quality) / 2
        } else {
            estimate = Double(pass.quality) - (pass.score - target) / slope
        }
        // Rounded up: of two qualities equally near the estimate, the one more likely to pass.
        return min(pass.quality - 1, max(low + 1, Int(estimate.rounded(.up))))
    }
}
