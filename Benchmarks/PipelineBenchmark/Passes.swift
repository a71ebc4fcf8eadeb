import Foundation
import ImageCodecs

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
    /// - Returns: The wall and CPU time.
    static func decode(_ inputs: [Data], count: Int, concurrency: Int) async throws -> PassTime {
        let decoder = ImageDecoder()
        return try await tasks(count: count, concurrency: concurrency) { index in
            _ = try decoder.decode(inputs[index % inputs.count])
        }
    }
}
