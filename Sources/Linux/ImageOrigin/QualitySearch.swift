public import Foundation
public import WebPBridge

/// Finds the lowest encoder quality whose output reaches a target score
/// (``SSIMULACRA2`` against the picture the variant shows), in at most
/// ``maxEncodes`` encodes, never above a ceiling (the fixed default).
///
/// The first encode is at ``start``: the ceiling unless the caller knows a
/// likelier quality (``ImageTransformer`` starts near where photos usually
/// land, which saves an encode on most of them). From a score the next
/// quality is predicted by the search's ``Model`` of how scores move with
/// quality (measured for each encoder; docs/benchmarks.md), at the slope
/// the last two trials showed once there are two (kept within a factor of
/// 3 of the model's); once one quality passes and one fails, the next is
/// interpolated between them on the model's scale, kept in the middle half
/// of the interval (so a bad guess still halves it, as bisection would).
/// The search stops at a passing encode within
/// ``tolerance`` of the target, when no quality lies between a pass and a
/// fail, or after ``maxEncodes``. The passing encode with the fewest bytes
/// is chosen; when none passes, the ceiling's encode, which the search
/// always reaches before its last encode if nothing below it has passed:
/// an image that misses the target even at the fixed quality gets the
/// fixed quality's bytes, never anything bigger.
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

    /// How the search expects a score to move with quality: what it
    /// predicts the next quality from.
    public enum Model: Sendable, Equatable {
        /// The score rises by `slope` points a quality step.
        case linear(slope: Double)
        /// The distance left to a perfect score (100 − score) shrinks by
        /// the same factor every quality step: its natural logarithm falls
        /// by `rate` a step.
        case distanceDecay(rate: Double)

        /// How far `score` lies along the model's scale, on which a score
        /// moves by ``slope`` every quality step: the score itself, or
        /// −ln(100 − score), with the distance kept at least ``closest``
        /// so that a perfect score (or a metric's +∞) has a place.
        func position(_ score: Double) -> Double {
            switch self {
            case .linear: score
            case .distanceDecay: -log(max(100 - score, Self.closest))
            }
        }

        /// How far ``position(_:)`` moves a quality step.
        var slope: Double {
            switch self {
            case .linear(let slope): slope
            case .distanceDecay(let rate): rate
            }
        }

        /// The smallest distance to a perfect score ``position(_:)`` takes.
        static let closest = 0.01
    }

    /// The most encodes one search makes.
    public static let maxEncodes = 4
    /// A passing encode at most this many points above the target ends the
    /// search: close enough that another encode would save little (on the
    /// Kodak photos a point is 1–2 WebP quality steps, about 2% of bytes).
    public static let tolerance = 2.5

    /// The score to reach.
    public var target: Double
    /// The qualities searched; the search starts at ``start``, the upper
    /// bound unless told otherwise.
    public var qualities: ClosedRange<Int>
    /// How scores are expected to move with quality.
    public var model: Model
    /// The first quality tried, within ``qualities``.
    public var start: Int

    /// Creates a search for `target` over `qualities` (within 1–100) by
    /// `model` (whose slope is positive), starting at `start` (clamped into
    /// `qualities`; the ceiling when `nil`).
    public init(target: Double, qualities: ClosedRange<Int>, model: Model, start: Int? = nil) {
        precondition(qualities.lowerBound >= 1 && qualities.upperBound <= 100 && model.slope > 0)
        self.target = target
        self.qualities = qualities
        self.model = model
        self.start = min(qualities.upperBound, max(qualities.lowerBound, start ?? qualities.upperBound))
    }

    /// A search by a ``Model/linear(slope:)`` model.
    public init(target: Double, qualities: ClosedRange<Int>, slope: Double, start: Int? = nil) {
        self.init(target: target, qualities: qualities, model: .linear(slope: slope), start: start)
    }

    /// Whether a `width`×`height` image can be scored (``SSIMULACRA2``
    /// needs 8 pixels a side). A smaller one's trials are scored NaN, which
    /// never reaches a target and sends the search to the ceiling.
    public static func canScore(width: Int, height: Int) -> Bool {
        width >= SSIMULACRA2.minimumSide && height >= SSIMULACRA2.minimumSide
    }

    /// Runs the search with SSIMULACRA 2 as the score: each quality's bytes
    /// from `encode`, decoded by `decode` and scored against `reference`,
    /// prepared once, in planes from `scorerPlanes` when given (given back when
    /// the search ends). An image too small to score
    /// (``canScore(width:height:)``) is scored NaN, so written at the ceiling.
    ///
    /// - Throws: ``ImageCodecError`` from `encode` or `decode`,
    ///   `.invalidArgument` when a decoded trial's size is not `reference`'s.
    public func run(
        against reference: Image, scorerPlanes: SSIMULACRA2.PlanePool? = nil,
        encode: (Int) throws(ImageCodecError) -> Data, decode: (Data) throws(ImageCodecError) -> Image
    ) throws(ImageCodecError) -> Choice {
        let scorer =
            try Self.canScore(width: reference.width, height: reference.height)
            ? SSIMULACRA2.Scorer(reference, pool: scorerPlanes) : nil
        return try run { (quality: Int) throws(ImageCodecError) -> Trial in
            let data = try encode(quality)
            return Trial(data: data, score: try scorer?.score(decode(data)) ?? .nan)
        }
    }

    /// Runs the search, calling `trial` for each quality it tries.
    ///
    /// - Throws: What `trial` throws.
    public func run<Failure: Error>(_ trial: (Int) throws(Failure) -> Trial) throws(Failure) -> Choice {
        let ceiling = qualities.upperBound
        var pass: (quality: Int, score: Double)? = nil
        var fail: (quality: Int, score: Double)? = nil
        var best: Choice? = nil
        var ceilingChoice: Choice? = nil
        var encodes = 0
        var quality = start
        var earlier: (quality: Int, score: Double)? = nil
        while true {
            let result = try trial(quality)
            encodes += 1
            let slope = measuredSlope(earlier, (quality, result.score)) ?? model.slope
            earlier = (quality, result.score)
            let choice = Choice(quality: quality, data: result.data, score: result.score, encodes: encodes)
            if quality == ceiling { ceilingChoice = choice }
            if result.score >= target {
                pass = (quality, result.score)
                if best.map({ result.data.count <= $0.data.count }) ?? true { best = choice }
            } else {
                fail = (quality, result.score)
            }
            guard encodes < Self.maxEncodes,
                let following = next(pass: pass, fail: fail, encodes: encodes, slope: slope)
            else { break }
            quality = following
        }
        guard var chosen = best ?? ceilingChoice else {
            preconditionFailure("the search ends at a pass or after trying the ceiling")
        }
        chosen.encodes = encodes
        return chosen
    }

    /// The slope on the model's scale between the last two trials when they
    /// give one (finite and positive), kept within a factor of 3 of the
    /// model's: the image's own, better than the assumed one for the next
    /// step. Kept rather than dropped when it is further off, so that an
    /// image the model fits badly (a score that rises a third as fast as
    /// the model says) is followed at the nearest slope the search trusts.
    private func measuredSlope(_ first: (quality: Int, score: Double)?, _ second: (quality: Int, score: Double))
        -> Double?
    {
        guard let first, first.quality != second.quality else { return nil }
        let rise = model.position(second.score) - model.position(first.score)
        let measured = rise / Double(second.quality - first.quality)
        guard measured.isFinite, measured > 0 else { return nil }
        return min(model.slope * 3, max(model.slope / 3, measured))
    }

    /// The next quality to try, or `nil` when the search is over: a pass
    /// close enough, no quality left between a pass and a fail, the
    /// ceiling failed, or the floor passed. With nothing passed yet and one
    /// encode left, the ceiling. Predictions aim at the middle of the
    /// accepted band (the target plus half the ``tolerance``), so a step
    /// from either side is as likely to land in it, and are made on the
    /// model's scale (`slope` is on it too).
    private func next(
        pass: (quality: Int, score: Double)?, fail: (quality: Int, score: Double)?, encodes: Int, slope: Double
    ) -> Int? {
        let aim = model.position(target + Self.tolerance / 2)
        let ceiling = qualities.upperBound
        if let pass, pass.score - target <= Self.tolerance { return nil }
        if let fail, fail.quality == ceiling { return nil }
        // An image that cannot be scored: the ceiling, as a fixed quality would write it.
        if let fail, fail.score.isNaN { return ceiling }
        let low = fail?.quality ?? qualities.lowerBound - 1
        let high = pass?.quality ?? ceiling + 1
        guard high - low > 1 else { return nil }
        if pass == nil, encodes == Self.maxEncodes - 1 { return ceiling }
        let estimate: Double
        if let pass, let fail, fail.score < pass.score {
            // Secant between the bracket's ends.
            let failed = model.position(fail.score)
            let fraction = (aim - failed) / (model.position(pass.score) - failed)
            let span = Double(pass.quality - fail.quality)
            estimate = Double(fail.quality) + span * min(0.75, max(0.25, fraction))
        } else if pass != nil, fail != nil {
            estimate = Double(low + high) / 2
        } else if let pass {
            estimate = Double(pass.quality) - (model.position(pass.score) - aim) / slope
        } else if let fail {
            estimate = Double(fail.quality) + (aim - model.position(fail.score)) / slope
        } else {
            return nil
        }
        // A score no metric gives (infinite) predicts nothing: halve the interval.
        let bounded = estimate.isFinite ? estimate : Double(low + min(high, ceiling)) / 2
        // Rounded up: of two qualities equally near the estimate, the one more likely to pass.
        return Int(min(Double(high - 1), max(Double(low + 1), bounded.rounded(.up))))
    }
}
