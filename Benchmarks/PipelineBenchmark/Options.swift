import Foundation

/// The command line of `pipeline-benchmark`.
struct Options {
    var rounds = 7
    /// Each pass asks for every image this many times, under distinct URLs.
    var repeats = 4
    var concurrency = ProcessInfo.processInfo.activeProcessorCount
    /// Memory-hit calls timed in each round.
    var hitsPerRound = 20_000
    var width = 750
    /// At most this many source photos (the corpus has 24).
    var images = 24
    var synthetic = false
    var timeLimit = Duration.seconds(600)
    /// Exit 1 when a bar of the issue is missed.
    var check = false

    static let memoryHitBarMicroseconds = 50.0
    static let networkOverheadBarPercent = 10.0

    static let usage = """
        usage: pipeline-benchmark [--rounds N] [--repeats N] [--concurrency C] [--hits N] [--width W]
                                  [--images N] [--synthetic] [--time-limit SECONDS] [--check]
        Measures ImagePipeline (default loader CurlDataLoader) against a live ImageOrigin on
        127.0.0.1, in one run, next to the codec alone on the same bytes:
          memory hit        image(for:) latency, median and p99 (bar: under 50 µs)
          network + decode  each image fetched fresh (new pipeline, distinct URLs) and decoded,
                            images/s and MB/s, vs ImageDecoder on the exact bytes received at the
                            same concurrency, each image kept to the end of the pass as the memory
                            cache keeps it (and, for reference, dropped at once): the overhead as a
                            ratio (bar: under 10%, judged on CPU time)
          disk hit          a fresh pipeline over a populated DiskCache: data(for:) alone, and
                            image(for:) vs decode only
        The origin's variants are made once before timing, so the network path is fetch + decode.
        Pipeline and codec passes alternate in every round; best and median are reported.
        Sources: the Kodak photos of the corpus (WEBP_BRIDGE_CORPUS, else ../shared/corpus)
        encoded as JPEG q90 into a temporary folder; generated photos when there is no corpus.
          --rounds N        alternating rounds (default 7)
          --repeats N       each image this many times a pass, under distinct URLs (default 4)
          --concurrency C   requests (and codec decodes) at once (default: the cores)
          --hits N          memory-hit calls timed per round (default 20000)
          --width W         the variant's width, imageView2/2/w/W (default 750)
          --images N        at most N source photos (default 24)
          --synthetic       generated photos even when the corpus is there
          --time-limit S    start no round after S seconds (default 600; one round always runs)
          --check           exit 1 when a bar is missed (a noisy machine can miss it)
        """

    init(arguments: [String]) throws(OptionsError) {
        var rest = arguments[...]
        func count(_ flag: String) throws(OptionsError) -> Int {
            guard let text = rest.popFirst() else { throw OptionsError("\(flag) needs a value") }
            guard let number = Int(text), number > 0 else { throw OptionsError("\(flag) needs a positive integer") }
            return number
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--rounds": rounds = try count(flag)
            case "--repeats": repeats = try count(flag)
            case "--concurrency": concurrency = try count(flag)
            case "--hits": hitsPerRound = try count(flag)
            case "--width": width = try count(flag)
            case "--images": images = try count(flag)
            case "--synthetic": synthetic = true
            case "--time-limit": timeLimit = .seconds(try count(flag))
            case "--check": check = true
            case "-h", "--help":
                print(Self.usage)
                exit(0)
            default: throw OptionsError("unknown argument \(flag)")
            }
        }
    }
}

/// A bad command line.
struct OptionsError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
