import Foundation

/// The command line of `loader-memory`.
struct Options {
    enum Loader: String { case curl, urlsession }

    var loader = Loader.curl
    var requests = 200_000
    var concurrency = 8
    var warmUp = 20_000
    var interval = 20_000
    var bodyBytes = 2048
    var timeLimit = Duration.seconds(900)
    /// Exit 1 when RSS grows more than this (percent) after warm-up.
    var maxGrowth: Double?

    static let usage = """
        usage: loader-memory [--loader curl|urlsession] [--requests N] [--concurrency C]
                             [--warm-up N] [--interval N] [--body-bytes B] [--time-limit SECONDS]
                             [--max-growth PERCENT]
        Fetches N small bodies from a loopback HTTPServer and prints resident memory (VmRSS)
        after warm-up and every interval, then the growth from warm-up to the end.
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
            case "--requests": requests = try count(flag)
            case "--concurrency": concurrency = try count(flag)
            case "--warm-up": warmUp = try count(flag)
            case "--interval": interval = try count(flag)
            case "--body-bytes": bodyBytes = try count(flag)
            case "--time-limit": timeLimit = .seconds(try count(flag))
            case "--max-growth":
                guard let percent = Double(try value(flag)) else { throw OptionsError("--max-growth needs a number") }
                maxGrowth = percent
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
