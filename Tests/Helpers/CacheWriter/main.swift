// cache-writer FOLDER RUN [CAPACITY_BYTES] [--sync]
//
// Opens a DiskCache at FOLDER and stores entries in a loop until killed, as
// the child of the kill -9 test: keys and bodies come from
// `CacheWriterBodies` (so a reader can verify every byte without a log),
// with refreshes (304s, which rewrite an entry) and removals mixed in, and a
// capacity small enough that eviction runs too. After each store it writes
// `stored INDEX` to stdout, unbuffered, so the test knows how far it got.
// `--sync` turns on `synchronizesWrites`: each entry is flushed to disk
// before it is published, which also keeps the temporary file open much
// longer, so more kills land in the middle of a write.
import Foundation
import TestSupport
import WebPBridge

let arguments = CommandLine.arguments
guard arguments.count >= 3, let run = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: cache-writer FOLDER RUN [CAPACITY_BYTES] [--sync]\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[1], isDirectory: true)
let capacity = arguments.count > 3 ? Int(arguments[3]) ?? 24 << 20 : 24 << 20
let synchronizesWrites = arguments.contains("--sync")

let cache: DiskCache
do {
    cache = try DiskCache(
        folder: folder,
        configuration: DiskCache.Configuration(capacity: capacity, synchronizesWrites: synchronizesWrites))
} catch {
    FileHandle.standardError.write(Data("cache-writer: \(error)\n".utf8))
    exit(1)
}

var index = 0
while true {
    let key = CacheWriterBodies.key(run: run, index: index)
    var headers: HTTPFieldList = ["Content-Type": "image/webp", "ETag": "\"\(run)-\(index)\""]
    if index % 3 == 0 { headers["Cache-Control"] = "max-age=3600" }
    let response = DataResponse(
        url: URL(string: key)!, statusCode: 200, headers: headers, body: CacheWriterBodies.body(for: key))
    if cache.store(response, for: key) {
        FileHandle.standardOutput.write(Data("stored \(index)\n".utf8))
    }
    if index % 5 == 4 {
        let earlier = CacheWriterBodies.key(run: run, index: index - 3)
        let notModified = DataResponse(
            url: URL(string: earlier)!, statusCode: 304, headers: ["Cache-Control": "max-age=60"], body: Data())
        cache.refresh(earlier, with: notModified, now: Date())
    }
    if index % 13 == 12 {
        cache.remove(CacheWriterBodies.key(run: run, index: index - 7))
    }
    index += 1
}
