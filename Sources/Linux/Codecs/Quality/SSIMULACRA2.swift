import Foundation

/// SSIMULACRA 2 (Jon Sneyers, Cloudinary, 2023; the metric in libjxl's
/// `tools/ssimulacra2.cc`), written here in Swift from its published
/// definition as the PyPI package `ssimulacra2` 0.3.0 states it — the score
/// the demo and `make bench-quality` judge by, so that `--quality auto`
/// searches by the judge's own measure (docs/benchmarks.md, "Quality chosen
/// per image"). 100 is identical; about 90 is visually lossless, 70 high,
/// 50 medium quality; it goes below 0 for heavy distortion.
///
/// The definition, step by step:
/// - 8-bit sRGB to linear light, then to XYB (the JPEG XL opsin matrix and
///   bias, cube root), shifted positive (`X·14 + 0.42`, `Y + 0.01`,
///   `B − Y + 0.55`);
/// - six scales, each half the one before (2×2 means in linear light,
///   partial blocks at the edges averaged over what they hold), while both
///   sides are at least 8 pixels;
/// - per scale and channel, Gaussian means (σ = 1.5, 11 taps; reflected at
///   the top and bottom, zero beyond the sides, as the package pads its
///   transposed planes), then three maps — `1 − SSIM` without the
///   luminance term (C₂ = 0.0009), and the edge ratio
///   `(1 + |img₂ − μ₂|) / (1 + |img₁ − μ₁|) − 1` split into artefacts
///   (above 0) and detail lost (below 0) — each pooled as a mean and as a
///   4-norm;
/// - those 108 numbers weighted (``weights``), then mapped to the score by
///   the published cubic and power.
///
/// What is not in the package: an image with transparency is scored over a
/// dark and a light background (0.1 and 0.9 of full scale, in linear light)
/// and the lower score kept, as libjxl's tool does; the package drops alpha.
/// And the work a weight of exactly 0 multiplies is skipped, which changes
/// no score.
///
/// Accuracy: within 0.01 of the package on the test images
/// (`SSIMULACRA2Tests`; 0.003 measured on 12 Kodak encodes); it computes in
/// `Float`, the package in `Double`.
///
/// Memory: a ``Reference`` holds five `Float` planes at the full scale (the
/// Y channel's image, mean and variance; X's and B's edge strength) and
/// nine at most of the smaller ones, 32 bytes per pixel of a 750×500 photo
/// (`SSIMULACRA2Tests`), in one buffer. Scoring adds 47 bytes per pixel of
/// planes (``Workspace``), made for one call of ``Reference/score(_:)``, or
/// once for all the candidates of a ``Scorer`` (what a quality search uses,
/// and where its reference is prepared too). A scorer made with a
/// ``PlanePool`` takes both buffers from it and gives them back, so the
/// next search reuses them instead of faulting them in again.
public enum SSIMULACRA2 {
    /// The score of `distorted` against `reference`.
    ///
    /// - Throws: ``ImageCodecError`` `.invalidArgument` when the sizes differ
    ///   or either side is under 8 pixels.
    public static func score(_ reference: Image, _ distorted: Image) throws(ImageCodecError) -> Double {
        try Reference(reference).score(distorted)
    }

    /// An image prepared once to score many candidates against: what a
    /// quality search holds while it tries encodes.
    public struct Reference: Sendable {
        /// Width in pixels.
        public let width: Int
        /// Height in pixels.
        public let height: Int
        /// One prepared side per background: one for an opaque image, two
        /// (dark, light) for one with transparency.
        private let sides: [Side]
        /// The background each side is composed over (a linear level); `nil`
        /// for an opaque image's one side.
        private let backgrounds: [Float?]
        /// Every side's planes, one after the other.
        private let storage: PlanePool.Lease

        /// Bytes held, for memory budgets.
        public var bytes: Int { sides.count * Side.floats(width: width, height: height) * MemoryLayout<Float>.stride }

        /// Prepares `image`.
        ///
        /// - Throws: ``ImageCodecError`` `.invalidArgument` when a side is under 8 pixels.
        public init(_ image: Image) throws(ImageCodecError) {
            try Self.checkSize(image.width, image.height)
            self.init(checked: image, workspace: Workspace(width: image.width, height: image.height), pool: nil)
        }

        /// Prepares `image` (at least 8×8), by way of `workspace` (its
        /// size), in a buffer from `pool` when given.
        fileprivate init(checked image: Image, workspace: Workspace, pool: PlanePool?) {
            width = image.width
            height = image.height
            let backgrounds: [Float?] = image.hasAlpha && !Self.isOpaque(image) ? [0.1, 0.9] : [nil]
            self.backgrounds = backgrounds
            let sideFloats = Side.floats(width: image.width, height: image.height)
            let storage = PlanePool.Lease(floats: backgrounds.count * sideFloats, from: pool)
            self.storage = storage
            sides = backgrounds.enumerated().map { index, background in
                Side(image, background: background, workspace: workspace, storage: storage, from: index * sideFloats)
            }
        }

        /// The score of `distorted` against this reference, in planes made
        /// for this one call (a ``Scorer`` reuses them across calls).
        ///
        /// - Throws: ``ImageCodecError`` `.invalidArgument` when the sizes differ.
        public func score(_ distorted: Image) throws(ImageCodecError) -> Double {
            try Scorer(self).score(distorted)
        }

        /// The lower score over the sides, in `workspace`.
        fileprivate func score(_ distorted: Image, in workspace: Workspace) throws(ImageCodecError) -> Double {
            try checkSameSize(distorted.width, distorted.height)
            return zip(sides, backgrounds).map { side, background in
                side.score(distorted, background: background, workspace: workspace, storage: storage)
            }.min() ?? 0
        }

        private func checkSameSize(_ otherWidth: Int, _ otherHeight: Int) throws(ImageCodecError) {
            guard otherWidth == width, otherHeight == height else {
                throw ImageCodecError.invalidArgument(
                    nil,
                    "SSIMULACRA 2 needs images of one size, got \(width)x\(height) and \(otherWidth)x\(otherHeight)")
            }
        }

        fileprivate static func checkSize(_ width: Int, _ height: Int) throws(ImageCodecError) {
            guard width >= minimumSide, height >= minimumSide else {
                throw ImageCodecError.invalidArgument(
                    nil, "SSIMULACRA 2 needs images of at least 8x8 pixels, got \(width)x\(height)")
            }
        }

        private static func isOpaque(_ image: Image) -> Bool {
            image.pixels.withUnsafeBufferPointer { pixels in
                var index = 3
                while index < pixels.count {
                    if pixels[index] != 255 { return false }
                    index += 4
                }
                return true
            }
        }
    }

    /// A reference with the planes its candidates are scored in, made
    /// once: what a quality search holds while it tries encodes, so that no
    /// trial allocates (and page-faults in) 47 bytes a pixel anew. Scores
    /// exactly as ``Reference/score(_:)`` does. Not for two threads at once.
    public final class Scorer {
        /// What candidates are scored against.
        public let reference: Reference
        private let workspace: Workspace

        /// The scorer of candidates against `reference`, its working planes
        /// from `pool` when given.
        public init(_ reference: Reference, pool: PlanePool? = nil) {
            self.reference = reference
            workspace = Workspace(width: reference.width, height: reference.height, pool: pool)
        }

        /// The scorer of candidates against `image`, prepared in the planes
        /// its candidates are then scored in; the reference's planes and the
        /// working ones from `pool` when given, and given back to it when
        /// both are freed.
        ///
        /// - Throws: ``ImageCodecError`` `.invalidArgument` when a side is under 8 pixels.
        public init(_ image: Image, pool: PlanePool? = nil) throws(ImageCodecError) {
            try Reference.checkSize(image.width, image.height)
            workspace = Workspace(width: image.width, height: image.height, pool: pool)
            reference = Reference(checked: image, workspace: workspace, pool: pool)
        }

        /// The score of `distorted` against ``reference``.
        ///
        /// - Throws: ``ImageCodecError`` `.invalidArgument` when the sizes differ.
        public func score(_ distorted: Image) throws(ImageCodecError) -> Double {
            try reference.score(distorted, in: workspace)
        }
    }

    /// The smallest side scored; a scale below it is not counted.
    public static let minimumSide = 8
    static let scales = 6
    /// C₂ of the SSIM map.
    static let c2: Float = 0.0009

    /// The published weights, in the package's order: channel (X, Y, B),
    /// then scale, then norm (mean, 4-norm), then map (SSIM, artefact,
    /// detail lost).
    static let weights: [Double] = [
        0.0, 0.0007376606707406586, 0.0, 0.0, 0.0007793481682867309, 0.0,
        0.0, 0.0004371155730107379, 0.0, 1.1041726426657346, 0.00066284834129271, 0.00015231632783718752,
        0.0, 0.0016406437456599754, 0.0, 1.8422455520539298, 11.441172603757666, 0.0,
        0.0007989109436015163, 0.000176816438078653, 0.0, 1.8787594979546387, 10.94906990605142, 0.0,
        0.0007289346991508072, 0.9677937080626833, 0.0, 0.00014003424285435884, 0.9981766977854967,
        0.00031949755934435053,
        0.0004550992113792063, 0.0, 0.0, 0.0013648766163243398, 0.0, 0.0,
        0.0, 0.0, 0.0, 7.466890328078848, 0.0, 17.445833984131262,
        0.0006235601634041466, 0.0, 0.0, 6.683678146179332, 0.00037724407979611296, 1.027889937768264,
        225.20515300849274, 0.0, 0.0, 19.213238186143016, 0.0011401524586618361, 0.001237755635509985,
        176.39317598450694, 0.0, 0.0, 24.43300999870476, 0.28520802612117757, 0.0004485436923833408,
        0.0, 0.0, 0.0, 34.77906344483772, 44.835625328877896, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0008680556573291698, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0005313191874358747, 0.0, 0.00016533814161379112, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0004179171803251336, 0.0017290828234722833, 0.0,
        0.0020827005846636437, 0.0, 0.0, 8.826982764996862, 23.19243343998926, 0.0,
        95.1080498811086, 0.9863978034400682, 0.9834382792465353, 0.0012286405048278493, 171.2667255897307,
        0.9807858872435379,
        0.0, 0.0, 0.0, 0.0005130064588990679, 0.0, 0.00010854057858411537,
    ]

    /// The six weights of one channel at one scale of `scaleCount`. As
    /// libjxl and the package both do, the weights are taken in order for
    /// the scales there are: an image with fewer than six (under 225 pixels
    /// on its shorter side) scores its Y channel with weights the list
    /// gives to X's coarser scales, and so on. That is the metric as
    /// published, kept so scores match.
    static func weights(channel: Int, scale: Int, of scaleCount: Int) -> ArraySlice<Double> {
        let start = channel * scaleCount * 6 + scale * 6
        return weights[start..<(start + 6)]
    }

    /// How many scales a `width`×`height` image has: halved (rounded up)
    /// while both sides stay at least ``minimumSide``, at most six.
    static func scaleCount(width: Int, height: Int) -> Int {
        var size = (width, height)
        var count = 0
        while count < scales, size.0 >= minimumSide, size.1 >= minimumSide {
            count += 1
            size = ((size.0 + 1) / 2, (size.1 + 1) / 2)
        }
        return count
    }

    /// The published map from the weighted sum to the score.
    static func finalScore(_ weightedSum: Double) -> Double {
        let sum = weightedSum * 0.9562382616834844
        let shaped =
            2.326765642916932 * sum - 0.020884521182843837 * sum * sum + 6.248496625763138e-05 * sum * sum * sum
        return shaped > 0 ? 100 - 10 * pow(shaped, 0.6276336467831387) : 100
    }
}

extension SSIMULACRA2 {
    /// What one channel at one scale needs: the SSIM map (and so the
    /// variances) when any SSIM weight is non-zero, the edge maps when any
    /// artefact or detail weight is.
    struct Needs {
        var ssim: Bool
        var edges: Bool

        init(channel: Int, scale: Int, of scaleCount: Int) {
            let weights = Array(SSIMULACRA2.weights(channel: channel, scale: scale, of: scaleCount))
            ssim = weights[0] != 0 || weights[3] != 0
            edges = weights[1] != 0 || weights[2] != 0 || weights[4] != 0 || weights[5] != 0
        }
    }

    /// Where the reference's prepared planes at one scale and channel are
    /// in its storage (a ``PlanePool/Lease``, written while the reference is
    /// prepared and only read after), as float offsets.
    struct ChannelReference: Sendable {
        /// The channel's values, its mean and variance: kept when the SSIM map is needed.
        var image: Int?
        var mean: Int?
        var variance: Int?
        /// `1 + |image − mean|`: kept when only the edge maps are.
        var edgeStrength: Int?
    }

    /// One prepared side of a reference (one background).
    struct Side: Sendable {
        /// `[scale][channel]`, ``SSIMULACRA2/scaleCount(width:height:)`` scales.
        var levels: [[ChannelReference]]

        /// The floats one side of a `width`×`height` reference keeps: three
        /// planes for each channel and scale whose SSIM map is weighed, one
        /// for each whose edge maps alone are.
        static func floats(width: Int, height: Int) -> Int {
            let scaleCount = SSIMULACRA2.scaleCount(width: width, height: height)
            var size = (width: width, height: height)
            var total = 0
            for scale in 0..<scaleCount {
                for channel in 0..<3 {
                    let needs = Needs(channel: channel, scale: scale, of: scaleCount)
                    total += size.width * size.height * (needs.ssim ? 3 : needs.edges ? 1 : 0)
                }
                size = ((size.width + 1) / 2, (size.height + 1) / 2)
            }
            return total
        }

        /// `image` over `background` prepared, by way of `workspace`, into
        /// `storage` from float `start` on (``floats(width:height:)`` of them).
        init(
            _ image: Image, background: Float?, workspace: Workspace, storage: PlanePool.Lease, from start: Int
        ) {
            let scaleCount = SSIMULACRA2.scaleCount(width: image.width, height: image.height)
            var levels: [[ChannelReference]] = []
            var next = start
            workspace.walk(image, background: background, scales: scaleCount) { scale, width, height in
                let count = width * height
                /// The next plane of `storage`, and its offset.
                func allot() -> (Int, UnsafeMutablePointer<Float>) {
                    defer { next += count }
                    return (next, storage.plane(next))
                }
                func kept(_ plane: UnsafePointer<Float>) -> Int {
                    let (offset, target) = allot()
                    target.update(from: plane, count: count)
                    return offset
                }
                var channels: [ChannelReference] = []
                for channel in 0..<3 {
                    let needs = Needs(channel: channel, scale: scale, of: scaleCount)
                    var prepared = ChannelReference()
                    if needs.ssim || needs.edges {
                        let plane = UnsafePointer(workspace.xyb(channel))
                        let mean = UnsafePointer(workspace.mean)
                        Blur.apply(plane, width: width, height: height, into: workspace.mean, through: workspace.down)
                        if needs.ssim {
                            prepared.image = kept(plane)
                            prepared.mean = kept(mean)
                            Self.multiply(plane, plane, into: workspace.product, count: count)
                            Blur.apply(
                                workspace.product, width: width, height: height, into: workspace.variance,
                                through: workspace.down)
                            prepared.variance = kept(workspace.variance)
                        } else {
                            let (offset, strength) = allot()
                            for index in 0..<count { strength[index] = 1 + abs(plane[index] - mean[index]) }
                            prepared.edgeStrength = offset
                        }
                    }
                    channels.append(prepared)
                }
                levels.append(channels)
            }
            precondition(
                next - start == Self.floats(width: image.width, height: image.height), "a side fills its planes")
            self.levels = levels
        }

        /// The score of `image` over `background` against this side, in `workspace`.
        func score(_ image: Image, background: Float?, workspace: Workspace, storage: PlanePool.Lease) -> Double {
            var sum = 0.0
            workspace.walk(image, background: background, scales: levels.count) { scale, width, height in
                for (channel, reference) in levels[scale].enumerated() {
                    let needs = Needs(channel: channel, scale: scale, of: levels.count)
                    guard needs.ssim || needs.edges else { continue }
                    let norms = Self.norms(
                        reference, in: storage, workspace.xyb(channel), width: width, height: height, needs: needs,
                        workspace: workspace)
                    let weights = Array(SSIMULACRA2.weights(channel: channel, scale: scale, of: levels.count))
                    for index in 0..<6 { sum += weights[index] * norms[index] }
                }
            }
            return SSIMULACRA2.finalScore(sum)
        }

        /// The six pooled values of one channel at one scale, in the
        /// weights' order (mean of SSIM, artefact, detail; then their 4-norms).
        private static func norms(
            _ reference: ChannelReference, in storage: PlanePool.Lease, _ plane: UnsafeMutablePointer<Float>,
            width: Int,
            height: Int, needs: Needs, workspace: Workspace
        ) -> [Double] {
            let count = width * height
            let image2 = UnsafePointer(plane)
            let mean2 = UnsafePointer(workspace.mean)
            let down = workspace.down
            var pooled = Pooled()
            Blur.apply(image2, width: width, height: height, into: workspace.mean, through: down)
            if needs.ssim, let image1 = reference.image, let mean1 = reference.mean, let variance1 = reference.variance
            {
                let image1 = UnsafePointer(storage.plane(image1))
                multiply(image2, image2, into: workspace.product, count: count)
                Blur.apply(workspace.product, width: width, height: height, into: workspace.variance, through: down)
                multiply(image1, image2, into: workspace.product, count: count)
                Blur.apply(workspace.product, width: width, height: height, into: workspace.covariance, through: down)
                pooled = pooledSSIM(
                    image1: image1, mean1: storage.plane(mean1), variance1: storage.plane(variance1), image2: image2,
                    mean2: mean2, variance2: workspace.variance, covariance: workspace.covariance, width: width,
                    height: height, edges: needs.edges)
            } else if let strength = reference.edgeStrength {
                pooled = pooledEdges(
                    image2: image2, mean2: mean2, strength: storage.plane(strength), width: width, height: height)
            }
            return pooled.norms(pixels: Double(count))
        }

        /// The SSIM map (and the edge maps when `edges`) pooled over a plane.
        private static func pooledSSIM(
            image1: UnsafePointer<Float>, mean1: UnsafePointer<Float>, variance1: UnsafePointer<Float>,
            image2: UnsafePointer<Float>, mean2: UnsafePointer<Float>, variance2: UnsafeMutablePointer<Float>,
            covariance: UnsafeMutablePointer<Float>, width: Int, height: Int, edges: Bool
        ) -> Pooled {
            let (variance2, covariance) = (UnsafePointer(variance2), UnsafePointer(covariance))
            var pooled = Pooled()
            for row in 0..<height {
                var lanes = Pooled.Row()
                var index = row * width
                let end = index + width
                func step(_ at: Int, _ load: (UnsafePointer<Float>, Int) -> Lanes, _ valid: Lanes) {
                    let mu1 = load(mean1, at)
                    let mu2 = load(mean2, at)
                    let numeratorM = 1 - (mu1 - mu2) * (mu1 - mu2)
                    let numeratorS = 2 * (load(covariance, at) - mu1 * mu2) + c2
                    let denominatorS = (load(variance1, at) - mu1 * mu1) + (load(variance2, at) - mu2 * mu2) + c2
                    lanes.add(ssim: positivePart(1 - numeratorM * numeratorS / denominatorS), valid: valid)
                    if edges {
                        let ratio =
                            (1 + magnitude(load(image2, at) - mu2)) / (1 + magnitude(load(image1, at) - mu1)) - 1
                        lanes.add(edge: ratio, valid: valid)
                    }
                }
                while index + 8 <= end {
                    step(index, Lanes.load, Pooled.allLanes)
                    index += 8
                }
                while index < end {
                    step(index, { Lanes(repeating: $0[$1]) }, Pooled.firstLane)
                    index += 1
                }
                pooled.add(lanes)
            }
            return pooled
        }

        /// The edge maps alone pooled over a plane, from the reference's edge strength.
        private static func pooledEdges(
            image2: UnsafePointer<Float>, mean2: UnsafePointer<Float>, strength: UnsafePointer<Float>,
            width: Int, height: Int
        ) -> Pooled {
            var pooled = Pooled()
            for row in 0..<height {
                var lanes = Pooled.Row()
                var index = row * width
                let end = index + width
                while index + 8 <= end {
                    let ratio =
                        (1 + magnitude(Lanes.load(image2, index) - Lanes.load(mean2, index)))
                        / Lanes.load(strength, index) - 1
                    lanes.add(edge: ratio, valid: Pooled.allLanes)
                    index += 8
                }
                while index < end {
                    let ratio = (1 + abs(image2[index] - mean2[index])) / strength[index] - 1
                    lanes.add(edge: Lanes(repeating: ratio), valid: Pooled.firstLane)
                    index += 1
                }
                pooled.add(lanes)
            }
            return pooled
        }

        /// `first × second`, lane by lane, into `output`.
        private static func multiply(
            _ first: UnsafePointer<Float>, _ second: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>,
            count: Int
        ) {
            for index in 0..<count { output[index] = first[index] * second[index] }
        }

        /// `|value|`, by clearing the sign bits: integer lanes the compiler
        /// keeps in vector registers, where the standard library's generic
        /// `pointwiseMax` ran lane by lane (a fifth of a search's time).
        @inline(__always)
        static func magnitude(_ value: Lanes) -> Lanes {
            unsafeBitCast(unsafeBitCast(value, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: Lanes.self)
        }

        /// `max(value, 0)` lane by lane.
        @inline(__always)
        static func positivePart(_ value: Lanes) -> Lanes { 0.5 * (value + magnitude(value)) }

        /// Sums and fourth-power sums of the three maps over a plane, each
        /// row summed in `Float` lanes and added into `Double`.
        struct Pooled {
            /// Weights that count every lane.
            static let allLanes = Lanes(repeating: 1)
            /// Weights that count only the first lane, for the values past the last whole eight.
            static let firstLane: Lanes = [1, 0, 0, 0, 0, 0, 0, 0]

            struct Row {
                var ssim = (sum: Lanes(), fourth: Lanes())
                var artefact = (sum: Lanes(), fourth: Lanes())
                var detail = (sum: Lanes(), fourth: Lanes())

                @inline(__always)
                mutating func add(ssim d: Lanes, valid: Lanes) {
                    let value = d * valid
                    let square = value * value
                    ssim.sum += value
                    ssim.fourth += square * square
                }

                @inline(__always)
                mutating func add(edge ratio: Lanes, valid: Lanes) {
                    let up = positivePart(ratio) * valid
                    let down = positivePart(-ratio) * valid
                    let up2 = up * up
                    let down2 = down * down
                    artefact.sum += up
                    artefact.fourth += up2 * up2
                    detail.sum += down
                    detail.fourth += down2 * down2
                }
            }

            var ssim = (sum: 0.0, fourth: 0.0)
            var artefact = (sum: 0.0, fourth: 0.0)
            var detail = (sum: 0.0, fourth: 0.0)

            mutating func add(_ row: Row) {
                ssim.sum += Double(row.ssim.sum.sum())
                ssim.fourth += Double(row.ssim.fourth.sum())
                artefact.sum += Double(row.artefact.sum.sum())
                artefact.fourth += Double(row.artefact.fourth.sum())
                detail.sum += Double(row.detail.sum.sum())
                detail.fourth += Double(row.detail.fourth.sum())
            }

            func norms(pixels: Double) -> [Double] {
                [
                    ssim.sum / pixels, artefact.sum / pixels, detail.sum / pixels,
                    pow(ssim.fourth / pixels, 0.25), pow(artefact.fourth / pixels, 0.25),
                    pow(detail.fourth / pixels, 0.25),
                ]
            }
        }
    }
}
