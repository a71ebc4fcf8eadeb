import Foundation
import WebPBridge

extension DemoReport {
    /// A tuned client's images beside today's settings: the client that
    /// loads the same page through a bridge at the fixed qualities and
    /// sends the same `Accept`, image by image. The bar for the
    /// tuned origin asks that no image cost more on the wire than there.
    struct AgainstFixed: Sendable, Equatable {
        /// One image the tuned client received more bytes for (as the JSON
        /// figures hold it too).
        struct Bigger: Sendable, Equatable, Codable {
            var path: String
            var tunedBytes: Int
            var fixedBytes: Int
        }

        /// The tuned client's and the fixed client's ``DemoClient/Profile/name``.
        var tuned: String
        var fixed: String
        /// Images both loaded without a failure.
        var compared: Int
        /// Of those, the ones that cost the tuned client more on the wire, in page order.
        var bigger: [Bigger]
        /// Wire bytes of the compared images of each kind, in
        /// ``DemoImageResult/Kind`` order (kinds with no compared image left out).
        var kinds: [KindBytes]

        /// The compared images of one kind: wire bytes to each client.
        struct KindBytes: Sendable, Equatable {
            var kind: DemoImageResult.Kind
            var tuned: Int
            var fixed: Int
        }
    }

    /// Each tuned client that asks the page's sizes (not one sized by its
    /// hints, whose images are another size) beside the first bridged
    /// client sending its `Accept`, in ``clients`` order. A tuned client
    /// with no such client is left out.
    var againstFixed: [AgainstFixed] {
        clients.compactMap { run -> AgainstFixed? in
            guard run.profile.route == .tunedOrigin(sizedByHints: false),
                let fixed = clients.first(where: {
                    $0.profile.route == .bridge && $0.profile.imageAccept == run.profile.imageAccept
                })
            else { return nil }
            let pairs = zip(run.images, fixed.images).filter { tuned, fixed in
                tuned.path == fixed.path && tuned.failure == nil && fixed.failure == nil
            }
            let bigger = pairs.filter { $0.wireBytes > $1.wireBytes }.map {
                AgainstFixed.Bigger(path: $0.path, tunedBytes: $0.wireBytes, fixedBytes: $1.wireBytes)
            }
            let kinds = DemoImageResult.Kind.allCases.compactMap { kind -> AgainstFixed.KindBytes? in
                let group = pairs.filter { $0.0.kind == kind }
                guard !group.isEmpty else { return nil }
                return AgainstFixed.KindBytes(
                    kind: kind, tuned: group.reduce(0) { $0 + $1.0.wireBytes },
                    fixed: group.reduce(0) { $0 + $1.1.wireBytes })
            }
            return AgainstFixed(
                tuned: run.profile.name, fixed: fixed.profile.name, compared: pairs.count, bigger: bigger, kinds: kinds)
        }
    }

    /// The lines the table prints for ``againstFixed``, e.g.
    /// `avif-tuned against avif: 54 images, none bigger on the wire; photos
    /// 512,004 B against 700,112 B, logos 6,510 B against 13,012 B`.
    var againstFixedLines: [String] {
        againstFixed.map { comparison in
            let against = { (tuned: Int, fixed: Int) in
                "\(tuned.formattedWithSeparators) B against \(fixed.formattedWithSeparators) B"
            }
            let verdict =
                comparison.bigger.isEmpty
                ? "none bigger on the wire"
                : "\(comparison.bigger.count) bigger on the wire ("
                    + comparison.bigger.map { "\($0.path) " + against($0.tunedBytes, $0.fixedBytes) }
                    .joined(separator: ", ") + ")"
            let kinds = comparison.kinds.map { "\($0.kind.shortName) " + against($0.tuned, $0.fixed) }
            return "\(comparison.tuned) against \(comparison.fixed): \(comparison.compared) images, \(verdict)"
                + (kinds.isEmpty ? "" : "; " + kinds.joined(separator: ", "))
        }
    }

    /// For each animation on the page (in page order), the frames and the
    /// type each client was handed and the bytes it cost on the wire, e.g.
    /// `/images/scene-pan.gif: legacy-webview 32 frames as image/gif
    /// (215,916 B on the wire), …`; `-` frames where the image failed.
    var animationLines: [String] {
        guard let first = clients.first else { return [] }
        return first.images.indices.filter { first.images[$0].kind == .animation }.map { index in
            let path = first.images[index].path
            let each = clients.compactMap { run -> String? in
                guard index < run.images.count, run.images[index].path == path else { return nil }
                let image = run.images[index]
                let frames = image.failure == nil ? image.deliveredFrames.map(String.init) ?? "-" : "-"
                return "\(run.profile.name) \(frames) frames as \(image.deliveredType)"
                    + " (\(image.wireBytes.formattedWithSeparators) B on the wire)"
            }
            return "\(path): " + each.joined(separator: ", ")
        }
    }
}

extension DemoImageResult.Kind {
    /// The kind in a sentence: `photos`, `logos`, `animations`.
    var shortName: String {
        switch self {
        case .photo: "photos"
        case .logo: "logos"
        case .animation: "animations"
        }
    }
}
