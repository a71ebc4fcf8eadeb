import Foundation

/// The command line of `loader-memory`.
struct Options {
    enum Loader: String { case curl, urlsession }

    /// What each request goes through.
    enum Path: String {
        /// `DataLoading.load` only: a fixed body from a bare HTTPServer.
        case loader
        /// `ImagePipeline.image(for:)` from a live `ImageOrigin`: rewrite,
        /// coalescing, both caches, the loader, the completeness check and
        /// the decode — every URL distinct, so every request misses.
        case pipeline
    }

    /// The pipeline's bytes cache.
    enum DataCacheKind: String { case memory, disk }

    var loader = Loader.curl
    var path = Path.loader
    var requests = 200_000
    var concurrency = 8
    var warmUp = 20_000
    var interval = 20_000
    var bodyBytes = 2048
    var timeLimit = Duration.seconds(900)
    /// Exit 1 when RSS grows more than this (percent) after warm-up.
    var maxGrowth: Double?
    /// Pipeline: source files on the origin (URLs cycle through them, each
    /// with its own `?i=N`, so no two requests share a cache key).
    var sourceImages = 100
    /// Pipeline: the decoded-image cache's bound, in pixel bytes.
    var memoryCacheBytes = 4 << 20
    /// Pipeline: the bytes cache's bound. Small on purpose: the variants are
    /// about 600 bytes, so 256 KiB is some 430 entries — full within the
    /// first thousand requests, so eviction runs for the rest of the run.
    var dataCacheBytes = 256 << 10
    var dataCache = DataCacheKind.memory

    static let usage = """
        usage: loader-memory [--through loader|pipeline] [--loader curl|urlsession] [--requests N]
                             [--concurrency C] [--warm-up N] [--interval N] [--time-limit SECONDS]
                             [--max-growth PERCENT]
                             [--body-bytes B]                                     (loader)
                             [--images N] [--memory-cache BYTES] [--data-cache memory|disk]
                             [--data-cache-bytes BYTES]                           (pipeline)
        Makes N requests against a loopback server and prints resident memory (VmRSS) after
        warm-up and every interval, then the growth from warm-up to the end.
          --through loader    DataLoading.load of a fixed body from a bare HTTPServer (default)
          --through pipeline  ImagePipeline.image(for:) of small images from a live ImageOrigin,
                              rewritten to WebP variants; every URL distinct (?i=N), so each
                              request is fetched and decoded and both caches stay at their caps
                              (which must be reached by the end of warm-up, or the run fails)
          --images N          pipeline: distinct source files on the origin (default 100)
          --memory-cache B    pipeline: decoded-image cache bound in bytes (default 4194304)
          --data-cache K      pipeline: bytes cache, memory (MemoryDataCache, default) or disk
                              (DiskCache in a temporary folder)
          --data-cache-bytes B  pipeline: bytes cache bound (default 262144)
          --max-growth P      exit 1 when RSS grows more than P percent after warm-up
          --time-limit S      stop claiming requests after S seconds (default 900)
        """

    init(arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let value = rest.popFirst() else { throw OptionsError("\(flag) needs a value") }
            return value
        }
        func count(_ flag: String) throws -> Int {
            guard let number = Int(try value(flag)), number > 0 else {
                throw OptionsError("\(flag) needs a positive integer")
            }
            return number
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--loader":
                guard let loader = Loader(rawValue: try value(flag)) else {
                    throw OptionsError("--loader is curl or urlsession")
                }
                self.loader = loader
            case "--through":
                guard let path = Path(rawValue: try value(flag)) else {
                    throw OptionsError("--through is loader or pipeline")
                }
                self.path = path
            case "--requests": requests = try count(flag)
            case "--concurrency": concurrency = try count(flag)
            case "--warm-up": warmUp = try count(flag)
            case "--interval": interval = try count(flag)
            case "--body-bytes": bodyBytes = try count(flag)
            case "--time-limit": timeLimit = .seconds(try count(flag))
            case "--max-growth":
                guard let percent = Double(try value(flag)) else { throw OptionsError("--max-growth needs a number") }
                maxGrowth = percent
            case "--images": sourceImages = try count(flag)
            case "--memory-cache": memoryCacheBytes = try count(flag)
            case "--data-cache-bytes": dataCacheBytes = try count(flag)
            case "--data-cache":
                guard let kind = DataCacheKind(rawValue: try value(flag)) else {
                    throw OptionsError("--data-cache is memory or disk")
                }
                dataCache = kind
            case "-h", "--help":
                print(Self.usage)
                exit(0)
            default:
                throw OptionsError("unknown argument \(flag)")
            }
        }
        guard warmUp < requests else { throw OptionsError("--warm-up must be below --requests") }
    }
}

/// A bad command line.
struct OptionsError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
