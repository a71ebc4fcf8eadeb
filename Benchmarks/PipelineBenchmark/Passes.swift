import Foundation
import WebPBridge

/// One timed pass: `count` jobs spread over workers.
enum Passes {
    /// Runs `job(0)` … `job(count - 1)` from `concurrency` tasks.
    /// - Returns: The wall and CPU time.
    /// - Throws: ``BenchmarkError`` with the first job's failure.
    static func tasks(
        count: Int, concurrency: Int, _ job: @escaping @Sendable (Int) async throws -> Void
    ) async throws -> PassTime {
        let jobs = JobCounter(count: count)
        let time = await PassTime.measure {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<concurrency {
                    group.addTask {
                        while let index = jobs.claim() {
                            do { try await job(index) } catch { jobs.fail("\(error)") }
                        }
                    }
                }
            }
        }
        if let failure = jobs.failure { throw BenchmarkError(failure) }
        return time
    }

    /// Decodes `inputs[i mod inputs.count]` for i below `count` with
    /// `ImageDecoder`, as the pipeline does, from `concurrency` tasks on the
    /// same cooperative thread pool the pipeline decodes on, with nothing
    /// else around it: the codec-only cost. (`DispatchQueue.concurrentPerform`
    /// measured up to 1.8 times slower than the pipeline here on a loaded
    /// machine: its threads are not the ones the pipeline's decodes run on.)
    ///
    /// - Parameter keepingImages: Hold every decoded image until the pass
    ///   ends, as the pipeline's memory cache does. A dropped image's pixels
    ///   go back to the allocator and the next decode reuses them warm; a
    ///   kept one makes the next decode write to fresh pages the kernel must
    ///   fault in and zero, which costs about a third of the decode again
    ///   for a 768x512 photo (measured here: 5.4 → 7.6 ms CPU per image).
    /// - Returns: The wall and CPU time.
    static func decode(_ inputs: [Data], count: Int, concurrency: Int, keepingImages: Bool) async throws -> PassTime {
        let decoder = ImageDecoder()
        let kept = KeptImages(count: keepingImages ? count : 0)
        return try await tasks(count: count, concurrency: concurrency) { index in
            let image = try decoder.decode(inputs[index % inputs.count])
            if keepingImages { kept.keep(image, at: index) }
        }
    }
}

/// Decoded images held for the length of a pass. Thread-safe: a `Lock`
/// around the slots.
private final class KeptImages: Sendable {
    private let slots: Lock<[DecodedImage?]>

    init(count: Int) { slots = Lock(Array(repeating: nil, count: count)) }

    func keep(_ image: DecodedImage, at index: Int) { slots.withLock { $0[index] = image } }
}
