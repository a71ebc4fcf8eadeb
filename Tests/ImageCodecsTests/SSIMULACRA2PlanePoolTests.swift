import Foundation
import TestSupport
import TestTraits
import Testing

@testable import WebPBridge

/// Scorers that take their planes from a ``SSIMULACRA2/PlanePool``: the
/// same scores to the bit whatever the kept planes held before, buffers
/// handed out only for the size they were made for (within a sixteenth),
/// and never more kept than the pool's bound, however many scorers give
/// planes back at once.
@Suite("SSIMULACRA2 plane pool", .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct SSIMULACRA2PlanePoolTests {
    /// The scores of `trials` against `reference` by one scorer.
    private func scores(_ reference: Image, _ trials: [Image], pool: SSIMULACRA2.PlanePool?) throws -> [Double] {
        let scorer = try SSIMULACRA2.Scorer(reference, pool: pool)
        return try trials.map { try scorer.score($0) }
    }

    private func lossy(_ image: Image, quality: Float) throws -> Image {
        try WebPDecoder().decode(WebPEncoder(options: .init(quality: quality)).encode(image))
    }

    /// A second search reuses the first one's two buffers (its workspace
    /// and its reference's planes), still holding another photo's values,
    /// and scores exactly as a scorer with planes of its own; so does a
    /// translucent image, whose reference has two sides.
    @Test func aScorerOnKeptPlanesScoresExactlyAsOneWithItsOwn() throws {
        let pool = SSIMULACRA2.PlanePool(capacityBytes: 64 << 20)
        let first = SyntheticImages.photo(width: 160, height: 120)
        let second = SSIMULACRA2Tests.pattern(width: 160, height: 120)
        let firstTrials = [try lossy(first, quality: 30), try lossy(first, quality: 70)]
        let secondTrials = [try lossy(second, quality: 20), SSIMULACRA2Tests.posterized(second)]

        let fresh = try scores(second, secondTrials, pool: nil)
        _ = try scores(first, firstTrials, pool: pool)
        #expect(pool.keptCount == 2 && pool.reuseCount == 0)
        #expect(try scores(second, secondTrials, pool: pool) == fresh)
        #expect(pool.reuseCount == 2 && pool.keptCount == 2)

        var translucent = SyntheticImages.photo(width: 160, height: 120)
        for index in stride(from: 3, to: translucent.pixels.count, by: 4) { translucent.pixels[index] = 140 }
        translucent.hasAlpha = true
        let translucentTrials = [try lossy(translucent, quality: 40)]
        #expect(
            try scores(translucent, translucentTrials, pool: pool) == scores(translucent, translucentTrials, pool: nil))
    }

    /// A kept buffer serves a request it exceeds by a sixteenth at most, the
    /// smallest that does, and never a larger one; the scorer's two
    /// buffers are just floats, so either kind serves either.
    @Test func aKeptBufferServesOnlyARequestOfAboutItsSize() throws {
        let pool = SSIMULACRA2.PlanePool(capacityBytes: 64 << 20)
        pool.give(.allocate(1_000))
        pool.give(.allocate(1_200))
        #expect(pool.keptCount == 2 && pool.keptBytes == 4 * 2_200)

        let tooLarge = pool.take(940)  // 1,000 is more than 940 + 940 / 16 = 998
        #expect(pool.reuseCount == 0 && tooLarge.capacity == 940)
        tooLarge.free()
        pool.give(.allocate(1_050))
        let smallest = pool.take(990)  // 1,000 and 1,050 are within 990 + 61: the smaller
        #expect(pool.reuseCount == 1 && smallest.capacity == 1_000)
        let larger = pool.take(1_130)
        #expect(pool.reuseCount == 2 && larger.capacity == 1_200 && pool.keptCount == 1)
        pool.give(smallest)
        let notSmaller = pool.take(1_060)
        #expect(pool.reuseCount == 2 && notSmaller.capacity == 1_060, "a smaller buffer never serves more")
        for buffer in [larger, notSmaller] { pool.give(buffer) }
        #expect(pool.keptBytes == 4 * (1_000 + 1_050 + 1_200 + 1_060))
    }

    /// Draining frees the oldest kept planes first, as many as asked for.
    @Test func drainingFreesTheOldestFirst() throws {
        let pool = SSIMULACRA2.PlanePool(capacityBytes: 64 << 20)
        _ = try SSIMULACRA2.Scorer(SyntheticImages.photo(width: 64, height: 48), pool: pool)
        let small = pool.keptBytes
        _ = try SSIMULACRA2.Scorer(SyntheticImages.photo(width: 200, height: 150), pool: pool)
        #expect(pool.keptCount == 4)
        // The first buffer given back (the small scorer's workspace or reference) goes first.
        let freed = pool.drain(1)
        #expect(freed > 0 && freed < small)
        #expect(pool.keptCount == 3)
        let rest = pool.keptBytes
        #expect(pool.drain(Int.max) == rest)
        #expect(pool.keptCount == 0 && pool.keptBytes == 0)
    }

    /// The flood: 8 threads make 400 scorers of 20 sizes against a pool of
    /// 1 MiB (room for about two of them). The bytes kept never exceed the
    /// bound, read after every scorer, and planes larger than the whole
    /// pool are never kept.
    @Test func aFloodOfScorersNeverKeepsMoreThanTheBound() async throws {
        let capacity = 1 << 20
        let pool = SSIMULACRA2.PlanePool(capacityBytes: capacity)
        let images = (0..<20).map { SyntheticImages.photo(width: 40 + 4 * $0, height: 30 + 3 * $0) }
        let overBound = SyntheticImages.photo(width: 200, height: 150)  // 79 × 30,000 B: more than 1 MiB
        let most = Lock(0)
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<8 {
                group.addTask {
                    for index in 0..<50 {
                        let image = index == 25 && thread == 0 ? overBound : images[(thread * 7 + index) % images.count]
                        _ = try? SSIMULACRA2.Scorer(image, pool: pool).score(image)
                        let kept = pool.keptBytes
                        most.withLock { $0 = max($0, kept) }
                    }
                }
            }
        }
        #expect(most.withLock { $0 } <= capacity)
        #expect(pool.keptBytes <= capacity && pool.keptBytes > 0)
        #expect(pool.reuseCount > 0)
    }

    /// A pool of no bytes keeps nothing: every scorer makes its own planes.
    @Test func aPoolOfNoBytesKeepsNothing() throws {
        let pool = SSIMULACRA2.PlanePool(capacityBytes: 0)
        for _ in 0..<3 { _ = try SSIMULACRA2.Scorer(SyntheticImages.photo(width: 64, height: 48), pool: pool) }
        #expect(pool.keptCount == 0 && pool.reuseCount == 0)
    }
}
