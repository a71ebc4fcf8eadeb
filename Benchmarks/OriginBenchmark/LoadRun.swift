import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Asks one server for every URL of a list, `clients` at a time, and writes
/// each answer's body where the list says. A WebP answer with status 200
/// counts; anything else is a failure. Bounded: no request starts after
/// `seconds`, and each has a 60-second timeout.
struct LoadRun {
    struct Result {
        var answers = 0
        var failures = 0
        var seconds = 0.0
        var bytes = 0
        var failureSamples: [String] = []
    }

    var list: TabList
    var clients: Int
    var seconds: Double

    /// Hands out the list's rows and collects the outcome, one client at a time.
    private actor Progress {
        private var next = 0
        private(set) var result = Result()
        let count: Int
        let deadline: ContinuousClock.Instant

        init(count: Int, deadline: ContinuousClock.Instant) {
            self.count = count
            self.deadline = deadline
        }

        func take() -> Int? {
            guard next < count, ContinuousClock.now < deadline else { return nil }
            defer { next += 1 }
            return next
        }

        func record(bytes: Int?, failure: String?) {
            if let bytes {
                result.answers += 1
                result.bytes += bytes
            }
            if let failure {
                result.failures += 1
                if result.failureSamples.count < 5 { result.failureSamples.append(failure) }
            }
        }
    }

    func run() async throws -> Result {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = clients
        configuration.timeoutIntervalForRequest = 60
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        let rows = list.rows
        let clock = ContinuousClock()
        let start = clock.now
        let progress = Progress(count: rows.count, deadline: start + .milliseconds(Int(seconds * 1000)))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<clients {
                group.addTask {
                    while let index = await progress.take() {
                        let (url, output) = rows[index]
                        let outcome = await Self.fetch(url, into: output, session: session)
                        await progress.record(bytes: outcome.bytes, failure: outcome.failure)
                    }
                }
            }
        }
        var result = await progress.result
        let elapsed = clock.now - start
        result.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return result
    }

    private static func fetch(_ address: String, into output: String, session: URLSession) async -> (
        bytes: Int?, failure: String?
    ) {
        guard let url = URL(string: address) else { return (nil, "\(address): not a URL") }
        do {
            let (data, response) = try await session.data(from: url)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            let isWebP = data.count > 12 && data.prefix(4) == Data("RIFF".utf8) && data[8..<12] == Data("WEBP".utf8)
            guard status == 200, isWebP else { return (nil, "\(address): status \(status), \(data.count) bytes") }
            try data.write(to: URL(fileURLWithPath: output))
            return (data.count, nil)
        } catch {
            return (nil, "\(address): \(error)")
        }
    }
}
