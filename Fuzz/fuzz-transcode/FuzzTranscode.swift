import FuzzEntries

/// libFuzzer's entry point: one input through `TranscodeFuzzEntry`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    TranscodeFuzzEntry.run(FuzzDriver.data(bytes, count))
    return 0
}

/// `fuzz-transcode`: libFuzzer in a fuzzing build, a replayer of input files otherwise.
@main
enum FuzzTranscode {
    static func main() {
        FuzzDriver.main(fuzzTestOneInput, entry: TranscodeFuzzEntry.run)
    }
}
