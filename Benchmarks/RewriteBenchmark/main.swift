// rewrite-benchmark: how many URLs per second one thread rewrites.
//
// A deterministic mixed list (matching, foreign, signed, already WebP, with
// existing processing, not images; several dialects) is rewritten several
// times; the best and median runs are reported. Run it in release:
// `make bench-rewrite` (or `swift build -c release --product rewrite-benchmark`).
import Foundation
import TestSupport
import WebPBridge

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// CPU time of this thread: unlike wall time, it is not inflated when other
/// processes compete for the core, so "URLs per CPU-second" is the work one
/// core does. Both are reported.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let count = arguments.first ?? 100_000
let runs = arguments.dropFirst().first ?? 7

let configuration = RewriteConfiguration(rules: [
    RewriteRule(
        name: "qiniu", hosts: ["img.example.com", "*.qiniu.example.com"], dialect: .qiniu(QiniuOptions()), width: 750),
    RewriteRule(name: "legacy", hosts: ["img.host.com"], dialect: .qiniuLegacy, width: 750),
    RewriteRule(
        name: "tencent", hosts: ["ci.example.com"], dialect: .tencentCI(TencentCIOptions()), width: 750, quality: 75),
    RewriteRule(name: "oss", hosts: ["oss.example.com"], dialect: .aliyunOSS(AliyunOSSOptions()), width: 750),
    RewriteRule(name: "cloudinary", hosts: ["res.cloudinary.com"], dialect: .cloudinary, width: 750),
    RewriteRule(name: "imgix", hosts: ["ix.example.com"], dialect: .imgix, width: 750),
    RewriteRule(name: "cloudflare", hosts: ["cf.example.com"], dialect: .cloudflare, width: 750),
])
let rewriter = try Rewriter(configuration: configuration)

/// The mixed list: about half match a rule, the rest are foreign, signed,
/// already WebP or not images.
func makeURLStrings(count: Int) -> [String] {
    var random = SeededGenerator(seed: 2026)
    let names = ["photo", "IMG_2041", "banner", "a", "%E5%9B%BE%E7%89%87", "thumb-2x"]
    func path() -> String {
        "/" + random.pick(["news", "2024/11", "u/12345", "static/img"]) + "/" + random.pick(names)
    }
    var strings: [String] = []
    strings.reserveCapacity(count)
    for _ in 0..<count {
        let roll = random.below(100)
        let url: String
        switch roll {
        case 0..<14: url = "https://img.example.com\(path()).jpg"
        case 14..<20: url = "http://a.qiniu.example.com\(path()).png?imageView2/1/w/200/h/200"
        case 20..<26: url = "http://img.host.com\(path()).jpg"
        case 26..<30: url = "http://img.host.com\(path()).jpg-thumb"
        case 30..<35: url = "https://ci.example.com\(path()).jpg?imageMogr2/thumbnail/300x"
        case 35..<40: url = "https://oss.example.com\(path()).jpg?x-oss-process=image/resize,w_300"
        case 40..<45: url = "https://res.cloudinary.com/demo/image/upload/v1\(path()).jpg"
        case 45..<50: url = "https://ix.example.com\(path()).png?w=300"
        case 50..<55: url = "https://cf.example.com\(path()).jpg"
        // Foreign hosts, including look-alikes.
        case 55..<65: url = "https://cdn.other.example\(path()).jpg"
        case 65..<69: url = "https://img.example.com.evil.example\(path()).jpg"
        case 69..<72: url = "https://evil.example/img.example.com\(path()).jpg"
        // Signed.
        case 72..<75: url = "https://img.example.com\(path()).jpg?imageView2/2/w/300&e=1700000000&token=AK:c2ln"
        case 75..<78: url = "https://oss.example.com\(path()).jpg?OSSAccessKeyId=AK&Expires=1700000000&Signature=c2ln"
        case 78..<80: url = "https://ix.example.com\(path()).jpg?w=300&s=0f1e2d3c"
        // Already WebP.
        case 80..<84: url = "https://img.example.com\(path()).jpg?imageView2/2/w/750/format/webp/ignore-error/1"
        case 84..<87: url = "http://img.host.com\(path()).jpg-WebPiOSW750"
        case 87..<90: url = "https://cf.example.com/cdn-cgi/image/width=750,format=webp,onerror=redirect\(path()).jpg"
        case 90..<92: url = "https://img.example.com\(path()).webp"
        // Not images.
        case 92..<96: url = "https://img.example.com\(path()).js"
        default: url = "https://img.example.com/page.html?img=\(random.pick(names)).jpg"
        }
        strings.append(url)
    }
    return strings
}
let strings = makeURLStrings(count: count)
let urls = strings.map { URL(string: $0)! }
let rewrittenCount = urls.reduce(0) { $0 + (rewriter.rewrite($1).isRewritten ? 1 : 0) }

func measure(_ body: () -> Int) -> (wall: [Double], cpu: [Double], checksum: Int) {
    var wall: [Double] = []
    var cpu: [Double] = []
    var checksum = 0
    let clock = ContinuousClock()
    for _ in 0..<runs {
        var sum = 0
        let cpuStart = threadCPUSeconds()
        let elapsed = clock.measure { sum = body() }
        let cpuSeconds = threadCPUSeconds() - cpuStart
        checksum &+= sum
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        wall.append(Double(count) / seconds)
        cpu.append(Double(count) / cpuSeconds)
    }
    return (wall.sorted(), cpu.sorted(), checksum)
}

let fromURLs = measure {
    var sum = 0
    for url in urls { sum &+= rewriter.rewrite(url).cacheKey.utf8.count }
    return sum
}
let fromStrings = measure {
    var sum = 0
    for string in strings {
        if let url = URL(string: string) { sum &+= rewriter.rewrite(url).cacheKey.utf8.count }
    }
    return sum
}

func format(_ rate: Double) -> String {
    let whole = Int(rate.rounded())
    var digits = String(whole)
    var grouped = ""
    while digits.count > 3 {
        grouped = "," + digits.suffix(3) + grouped
        digits.removeLast(3)
    }
    return (digits + grouped).padding(toLength: 9, withPad: " ", startingAt: 0)
}

print("rewrite-benchmark: \(count) URLs (\(rewrittenCount * 100 / max(count, 1))% rewritten), \(runs) runs, one thread")
print("                                 wall clock                          CPU time of the thread")
for (name, result) in [("rewrite(URL)", fromURLs), ("URL(string:) + rewrite", fromStrings)] {
    let label = name.padding(toLength: 24, withPad: " ", startingAt: 0)
    print(
        "  \(label) best \(format(result.wall.last!)) median \(format(result.wall[runs / 2])) URLs/s"
            + "   best \(format(result.cpu.last!)) median \(format(result.cpu[runs / 2])) URLs/s")
}
print("  (checksum \(fromURLs.checksum &+ fromStrings.checksum))")
