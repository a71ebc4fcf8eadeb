import Foundation
import WebPBridge

/// `codecs-benchmark --transcoder THREADS SECONDS FILE...`: images per second
/// through `Transcoder` with the bridge's default configuration, for a
/// consumer that cannot show WebP, on `THREADS` threads at once, each
/// cycling through the files until `SECONDS` have passed. This is the upper
/// bound for the bridge's transcode path: the same work without HTTP, the
/// pipeline or the work queue. Exits with the result printed; never returns.
func runTranscoderThroughput(_ arguments: [String]) -> Never {
    guard arguments.count >= 3, let threads = Int(arguments[0]), threads > 0,
        let seconds = Double(arguments[1]), seconds > 0
    else {
        FileHandle.standardError.write(Data("usage: codecs-benchmark --transcoder THREADS SECONDS FILE...\n".utf8))
        exit(2)
    }
    let files: [Data] = arguments.dropFirst(2).map { path in
        guard let data = FileManager.default.contents(atPath: path) else {
            FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
            exit(1)
        }
        return data
    }
    // As BridgeProxy.Configuration builds it, and as the bridge calls it.
    let transcoder = Transcoder(codec: CImageCodec())
    let first: Transcoder.Output
    do {
        first = try transcoder.transcode(files[0], for: Transcoder.withoutWebP)
    } catch {
        FileHandle.standardError.write(Data("transcode failed: \(error)\n".utf8))
        exit(1)
    }

    let images = Lock<Int>(0)
    let failure = Lock<String?>(nil)
    let finished = DispatchSemaphore(value: 0)
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = start + .milliseconds(Int(seconds * 1000))
    for index in 0..<threads {
        let worker = Thread {
            var next = index % files.count
            while clock.now < deadline {
                do {
                    _ = try transcoder.transcode(files[next], for: Transcoder.withoutWebP)
                } catch {
                    failure.withLock { $0 = "\(error)" }
                    break
                }
                images.withLock { $0 += 1 }
                next = (next + 1) % files.count
            }
            finished.signal()
        }
        worker.start()
    }
    for _ in 0..<threads { finished.wait() }
    let elapsed = (clock.now - start).components
    if let message = failure.withLock({ $0 }) {
        FileHandle.standardError.write(Data("transcode failed: \(message)\n".utf8))
        exit(1)
    }
    let total = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    print(
        "transcoder \(threads) \(images.withLock { $0 }) \(String(format: "%.6f", total)) "
            + "\(first.format) \(first.data.count)")
    exit(0)
}
