import TestTraits
import Testing
import WebPBridge

/// How frames with their own delays become equal slots for a player that
/// shows every frame for the same time.
@Suite(.timeLimit(.suiteBound))
struct AnimationTimelineTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var delays: [Int]
        var indices: [Int]
        var total: Int

        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "equal delays: one slot each", delays: [100, 100, 100], indices: [0, 1, 2], total: 300),
        Row(name: "a delay twice another: two slots", delays: [20, 40], indices: [0, 1, 1], total: 60),
        Row(name: "delays of 30 and 50: slots of 10", delays: [30, 50], indices: [0, 0, 0, 1, 1, 1, 1, 1], total: 80),
        Row(name: "a zero delay counts as 1 ms", delays: [0, 3], indices: [0, 1, 1, 1], total: 4),
        Row(name: "a negative delay counts as 1 ms", delays: [-5, 1], indices: [0, 1], total: 2),
        Row(name: "no frames: no slots", delays: [], indices: [], total: 0),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) {
        let timeline = AnimationTimeline(delaysMilliseconds: row.delays)
        #expect(timeline.frameIndices == row.indices)
        #expect(timeline.totalMilliseconds == row.total)
    }

    /// Delays with no common divisor above 1 ms would need a slot per
    /// millisecond: the slots are bounded instead, every frame keeps at
    /// least one, in order, and each frame's share stays close to its delay.
    @Test func oddDelaysAreBounded() {
        let delays = [7, 1_000, 13, 2_003]
        let timeline = AnimationTimeline(delaysMilliseconds: delays)
        #expect(timeline.frameIndices.count <= AnimationTimeline.maximumSlots + delays.count)
        #expect(timeline.frameIndices == timeline.frameIndices.sorted())
        #expect(Set(timeline.frameIndices) == [0, 1, 2, 3])
        let slot = Double(timeline.totalMilliseconds) / Double(timeline.frameIndices.count)
        let share = Double(timeline.frameIndices.filter { $0 == 3 }.count) * slot
        #expect(abs(share - 2_003) < 10, "frame 3 plays \(share) ms of 2003")
    }

    /// A hostile file's flood of frames with prime delays: the slots stay
    /// within the bound plus one per frame.
    @Test func aFloodOfFramesStaysBounded() {
        let delays = (0..<5_000).map { [7, 11, 13, 17][$0 % 4] * 1_009 }
        let timeline = AnimationTimeline(delaysMilliseconds: delays)
        #expect(timeline.frameIndices.count <= AnimationTimeline.maximumSlots + delays.count)
        #expect(Set(timeline.frameIndices).count == 5_000)
    }
}
