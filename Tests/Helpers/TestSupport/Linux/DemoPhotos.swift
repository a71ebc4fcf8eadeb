import Foundation
import WebPBridge

/// Source photos made by the tests, so the demo's suites (the demo target's
/// and the `demo` command's) run without mate-backgrounds.
public enum DemoPhotos {
    /// A new temporary folder of `count` JPEG photos (`photo-00.jpg`, …) of
    /// the given sizes in turn, plus a `README.txt` that is not a photo.
    ///
    /// - Throws: What encoding or writing a file throws.
    public static func folder(count: Int, sizes: [(Int, Int)]) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "demo-photos")
        for index in 0..<count {
            let (width, height) = sizes[index % sizes.count]
            let photo = SyntheticImages.photo(width: width, height: height, seed: index + 1)
            try JPEGEncoder(options: .init(quality: 92)).encode(photo)
                .write(to: folder.file(String(format: "photo-%02d.jpg", index)))
        }
        try Data("not a photo".utf8).write(to: folder.file("README.txt"))
        return folder
    }
}
