import Foundation
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// The search's bound and its answers, on scores from a model (so every
/// case is exact) and from scores that follow no model at all.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct QualitySearchTests {
    /// Scores as encoders give them, near enough: SSIMULACRA 2 points
    /// rising about linearly with quality, `intercept + slope × q`.
    static func modelScore(_ quality: Int, intercept: Double, slope: Double) -> Double {
        intercept + slope * Double(quality)
    }

    /// Runs `search` on ``modelScore(_:intercept:slope:)``'s line, bytes
    /// growing with quality as they do: what it chose, the qualities it
    /// tried, and the lowest quality of 30–80 that reaches the target.
    static func run(_ search: QualitySearch, intercept: Double, slope: Double) -> (
        choice: QualitySearch.Choice, tried: [Int], lowest: Int?
    ) {
        var tried: [Int] = []
        let choice = search.run { (quality: Int) -> QualitySearch.Trial in
            tried.append(quality)
            let score = modelScore(quality, intercept: intercept, slope: slope)
            return QualitySearch.Trial(data: Data(count: quality * 10), score: score)
        }
        let lowest = (30...80).first { modelScore($0, intercept: intercept, slope: slope) >= search.target }
        return (choice, tried, lowest)
    }

    @Test(arguments: [
        (20.0, 0.55, 65.0), (0.0, 1.0, 60.0), (30.0, 0.4, 55.0), (-10.0, 1.2, 70.0),
        (40.0, 0.5, 75.0), (50.0, 0.3, 64.0), (35.0, 0.9, 50.0),
    ])
    func reachesTheTargetWithinTheBound(intercept: Double, slope: Double, target: Double) {
        let search = QualitySearch(target: target, qualities: 30...80, slope: 0.55)
        let (choice, tried, lowest) = Self.run(search, intercept: intercept, slope: slope)
        #expect(tried.count == choice.encodes && choice.encodes <= QualitySearch.maxEncodes)
        #expect(tried.first == 80, "the fixed default first: \(tried)")
        if let lowest {
            #expect(choice.score >= target, "\(tried)")
            #expect(choice.quality >= lowest && choice.quality <= 80)
            // Four encodes narrow 50 qualities to a few steps of the answer, unless one was close enough.
            let closeEnough = choice.score - target <= QualitySearch.tolerance
            #expect(
                choice.quality - lowest <= 6 || closeEnough,
                "chose \(choice.quality), lowest passing \(lowest), tried \(tried)")
        } else {
            #expect(choice.quality == 80 && choice.encodes == 1, "the default when even it misses: \(tried)")
        }
    }

    /// Started below the ceiling, as the origin starts: the same answers,
    /// and an image the ceiling cannot bring to the target still gets the
    /// ceiling, within the bound.
    @Test(arguments: [
        (20.0, 0.55, 65.0, 66), (0.0, 1.0, 60.0, 66), (30.0, 0.4, 55.0, 46), (-10.0, 1.2, 70.0, 76),
        (40.0, 0.5, 75.0, 76), (50.0, 0.3, 64.0, 64), (35.0, 0.9, 50.0, 36), (10.0, 0.5, 65.0, 66),
        (60.0, 0.1, 70.0, 50),
    ])
    func aStartBelowTheCeilingKeepsTheAnswersAndTheBound(
        intercept: Double, slope: Double, target: Double, start: Int
    ) {
        let search = QualitySearch(target: target, qualities: 30...80, slope: 0.55, start: start)
        let (choice, tried, lowest) = Self.run(search, intercept: intercept, slope: slope)
        #expect(tried.first == start && tried.count == choice.encodes && choice.encodes <= QualitySearch.maxEncodes)
        #expect(Set(tried).count == tried.count, "no quality twice: \(tried)")
        if let lowest {
            #expect(choice.score >= target && choice.quality >= lowest && choice.quality <= 80, "\(tried)")
            #expect(
                choice.quality - lowest <= 6 || choice.score - target <= QualitySearch.tolerance,
                "chose \(choice.quality), lowest passing \(lowest), tried \(tried)")
        } else {
            #expect(choice.quality == 80 && tried.contains(80), "the ceiling when nothing passes: \(tried)")
        }
    }

    /// Scores that follow the search's own model exactly, at its slope:
    /// the first prediction lands in the accepted band, so every search
    /// that does not start there ends at its second encode.
    @Test(arguments: [
        (QualitySearch.Model.linear(slope: 0.55), 65.0, 40), (.linear(slope: 0.55), 55.0, 66),
        (.linear(slope: 1.05), 72.0, 53), (.distanceDecay(rate: 0.0316), 65.0, 45),
        (.distanceDecay(rate: 0.0316), 55.0, 60), (.distanceDecay(rate: 0.0316), 72.0, 31),
        (.distanceDecay(rate: 0.02), 80.0, 50),
    ])
    func scoresThatFollowTheModelAreFoundInTwoEncodes(model: QualitySearch.Model, target: Double, start: Int) {
        // Scores through 50 at q40 that move as `model` says.
        func score(_ quality: Int) -> Double {
            switch model {
            case .linear(let slope): 50 + slope * Double(quality - 40)
            case .distanceDecay(let rate): 100 - 50 * exp(-rate * Double(quality - 40))
            }
        }
        let search = QualitySearch(target: target, qualities: 30...100, model: model, start: start)
        #expect(score(start) < target || score(start) > target + QualitySearch.tolerance, "not in the band already")
        var tried: [Int] = []
        let choice = search.run { (quality: Int) -> QualitySearch.Trial in
            tried.append(quality)
            return QualitySearch.Trial(data: Data(count: quality * 10), score: score(quality))
        }
        let lowest = (30...100).first { score($0) >= target }
        #expect(tried.count == 2, "\(tried)")
        #expect(choice.score >= target && choice.score - target <= QualitySearch.tolerance, "\(tried)")
        #expect(lowest.map { choice.quality >= $0 } == true, "chose \(choice.quality), lowest \(lowest ?? -1)")
    }

    /// Both models on the same scores, which follow neither exactly: the
    /// same guarantees.
    @Test(arguments: [QualitySearch.Model.linear(slope: 0.55), .distanceDecay(rate: 0.0316)])
    func eitherModelKeepsTheAnswersOnScoresItDoesNotFit(model: QualitySearch.Model) {
        let lines = [(20.0, 0.55, 65.0), (30.0, 0.4, 55.0), (40.0, 0.5, 75.0), (35.0, 0.9, 50.0)]
        for (intercept, slope, target) in lines {
            let search = QualitySearch(target: target, qualities: 30...80, model: model, start: 55)
            let (choice, tried, lowest) = Self.run(search, intercept: intercept, slope: slope)
            #expect(tried.count == choice.encodes && choice.encodes <= QualitySearch.maxEncodes)
            #expect(Set(tried).count == tried.count, "no quality twice: \(tried)")
            if let lowest {
                #expect(choice.score >= target && choice.quality >= lowest, "\(tried)")
                #expect(
                    choice.quality - lowest <= 6 || choice.score - target <= QualitySearch.tolerance,
                    "chose \(choice.quality), lowest passing \(lowest), tried \(tried)")
            } else {
                #expect(choice.quality == 80 && tried.contains(80), "\(tried)")
            }
        }
    }

    @Test func anEncodeCloseToTheTargetEndsTheSearch() {
        let search = QualitySearch(target: 65, qualities: 30...80, slope: 0.55)
        var encodes = 0
        let choice = search.run { (quality: Int) -> QualitySearch.Trial in
            encodes += 1
            // One point above the target: within the tolerance.
            return QualitySearch.Trial(data: Data(count: quality), score: 66)
        }
        #expect(encodes == 1 && choice.quality == 80)
    }

    @Test func anImageTooSmallToScoreGetsTheCeiling() {
        #expect(!QualitySearch.canScore(width: 7, height: 100) && QualitySearch.canScore(width: 8, height: 8))
        for start in [80, 50] {
            let search = QualitySearch(target: 65, qualities: 30...80, slope: 0.55, start: start)
            var tried: [Int] = []
            let choice = search.run { (quality: Int) -> QualitySearch.Trial in
                tried.append(quality)
                return QualitySearch.Trial(data: Data(count: quality), score: .nan)
            }
            #expect(choice.quality == 80 && tried == (start == 80 ? [80] : [50, 80]), "\(tried)")
        }
    }

    /// A flood of searches over scores that follow no model (a hostile or
    /// broken metric): never more than the bound, never a failing answer
    /// other than the default, never outside the range.
    @Test(arguments: [false, true])
    func scoresWithoutOrderStillKeepTheBound(decay: Bool) {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var searchesThatMoved = 0
        for _ in 0..<5_000 {
            let target = 30 + random() * 65
            let start = 1 + Int(random() * 100)
            let slope = 0.05 + random() * 2
            let model: QualitySearch.Model = decay ? .distanceDecay(rate: slope / 20) : .linear(slope: slope)
            let search = QualitySearch(target: target, qualities: 1...100, model: model, start: start)
            var encodes = 0
            let choice = search.run { (quality: Int) -> QualitySearch.Trial in
                encodes += 1
                let score = [Double.infinity, -.infinity, .nan, random() * 110 - 10][Int(random() * 3.999)]
                return QualitySearch.Trial(data: Data(count: Int(random() * 1000)), score: score)
            }
            #expect(encodes <= QualitySearch.maxEncodes && choice.encodes == encodes)
            #expect((1...100).contains(choice.quality))
            #expect(choice.score >= target || choice.quality == 100)
            if choice.quality != 100 { searchesThatMoved += 1 }
        }
        #expect(searchesThatMoved > 0)
    }
}
