import Foundation
import TestSupport
import WebPBridge

/// The photos the origin serves, as JPEG q90 bytes: the corpus's Kodak
/// photos when it is there (read in place, encoded in memory, never copied
/// into the project), generated photos of the same size otherwise.
struct SourcePhotos {
    struct Photo {
        let name: String
        let jpeg: Data
    }

    let photos: [Photo]
    /// Where they came from, for the report.
    let origin: String

    static let quality = 90

    init(limit: Int, synthetic: Bool) throws {
        let encoder = JPEGEncoder(options: .init(quality: Self.quality))
        let kodak = synthetic ? [] : Array(Corpus.kodakNames.prefix(limit))
        if kodak.isEmpty {
            photos = try (0..<limit).map { index in
                let image = SyntheticImages.photo(width: 768, height: 512, seed: index + 1)
                return Photo(name: "photo\(index + 1).jpg", jpeg: try encoder.encode(image))
            }
            origin =
                synthetic
                ? "\(limit) generated 768x512 photos (--synthetic)"
                : "\(limit) generated 768x512 photos: no corpus (\(Corpus.unavailableReason))"
            return
        }
        let decoder = PNGDecoder()
        photos = try kodak.map { name in
            let image = try decoder.decode(try Corpus.data("kodak/\(name)"))
            return Photo(name: (name as NSString).deletingPathExtension + ".jpg", jpeg: try encoder.encode(image))
        }
        origin = "\(photos.count) Kodak photos from \(try Corpus.url("kodak").path)"
    }
}
