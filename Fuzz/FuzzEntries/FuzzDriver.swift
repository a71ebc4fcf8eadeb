public import Foundation

/// The `main` of every fuzz executable.
///
/// Built for fuzzing (`-sanitize=fuzzer` with `-D FUZZING`, as `make fuzz`
/// does) it hands control to libFuzzer, which calls the executable's
/// `LLVMFuzzerTestOneInput`. In a normal build it replays the files and
/// folders given on the command line through the same entry instead, so
/// the executables build, and a crasher can be rerun under a debugger,
/// without the fuzzer runtime.
public enum FuzzDriver {
    /// libFuzzer's callback: one input, answered with 0.
    public typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

    /// libFuzzer's buffer as `Data` (an empty input may come as `nil`).
    public static func data(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Data {
        guard let bytes, count > 0 else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// Runs libFuzzer with `testOneInput` (fuzzing build), or replays every
    /// file named on the command line through `entry` (normal build).
    public static func main(_ testOneInput: TestOneInput, entry: (Data) -> Void) -> Never {
        #if FUZZING
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(runLibFuzzer(&argc, &argv, testOneInput))
        #else
            let paths = CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("-") }
            guard !paths.isEmpty else {
                print(
                    "usage: \(CommandLine.arguments[0]) FILE|FOLDER… (replays inputs; build with make fuzz to fuzz)")
                exit(2)
            }
            var count = 0
            for file in paths.flatMap(files(at:)) {
                guard let data = FileManager.default.contents(atPath: file) else {
                    print("cannot read \(file)")
                    exit(1)
                }
                entry(data)
                count += 1
            }
            print("replayed \(count) inputs without a crash")
            exit(0)
        #endif
    }

    /// `path` itself, or the regular files inside it when it is a folder (sorted).
    public static func files(at path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            return [path]
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { (path as NSString).appendingPathComponent($0) }
    }
}

#if FUZZING
    /// libFuzzer's driver (`FuzzerDriver.cpp`), linked in by `-sanitize=fuzzer`.
    @_silgen_name("LLVMFuzzerRunDriver")
    private func runLibFuzzer(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ testOneInput: FuzzDriver.TestOneInput
    ) -> Int32
#endif
