/// Bounds on what a decoder will accept, checked from the headers before any
/// pixel buffer is allocated, so that decompression bombs fail fast.
public struct DecodingLimits: Sendable, Equatable {
    /// Largest accepted input, in bytes. Default 64 MiB.
    public var maxInputBytes: Int
    /// Largest accepted frame (or canvas), in pixels. Default 50 megapixels.
    public var maxPixelsPerFrame: Int
    /// Most frames accepted in an animation. Default 1,000.
    public var maxFrames: Int
    /// Most pixels summed over all frames of an animation. Default 1
    /// gigapixel (4 GB of RGBA held whole) on Linux and macOS, 50 megapixels
    /// on iOS, tvOS, watchOS and visionOS (``mobile``). ``AnimationReader`` and the
    /// encoders that take it convert frame by frame in the memory of a few
    /// frames, so there it bounds the work, not the memory; decoding to an
    /// ``AnimatedImage`` holds every frame. ``Transcoder`` defaults to 100
    /// megapixels, a per-request bound.
    public var maxTotalPixels: Int
    /// Most scans (`SOS` segments) accepted in a JPEG, counted before
    /// decoding. Default 500, the bound libjpeg-turbo's own tools and fuzzers
    /// set (`TJPARAM_SCANLIMIT`, `djpeg -maxscans`): a decoder redoes the
    /// whole image's work per scan, so a 94 KB file of 5,000 scans took 13 s.
    /// Real progressive JPEGs have about 10.
    public var maxScans: Int
    /// Most pixels one job may process: every frame decoded and every frame
    /// encoded, each counted at its size (an animation of `n` frames of
    /// `w`×`h` decoded costs `n`·`w`·`h`). Memory is bounded by the other
    /// limits; this bounds time. Default `Int.max` (no bound: a command run
    /// by hand may take long); servers set ``serverWorkPixels``.
    /// ``checkAnimation(width:height:frames:format:)`` refuses an
    /// animation whose decoding alone exceeds it, from its header.
    public var maxWorkPixels: Int

    /// The servers' default ``maxWorkPixels``: 60 megapixels, about 2 s of
    /// one core here at the slowest common work (docs/work-budget.md).
    public static let serverWorkPixels = 60_000_000

    /// Creates limits; every value must be positive.
    public init(
        maxInputBytes: Int = 64 << 20,
        maxPixelsPerFrame: Int = 50_000_000,
        maxFrames: Int = 1_000,
        maxTotalPixels: Int = 1_000_000_000,
        maxScans: Int = 500,
        maxWorkPixels: Int = .max
    ) {
        precondition(
            maxInputBytes > 0 && maxPixelsPerFrame > 0 && maxFrames > 0 && maxTotalPixels > 0 && maxScans > 0
                && maxWorkPixels > 0)
        self.maxInputBytes = maxInputBytes
        self.maxPixelsPerFrame = maxPixelsPerFrame
        self.maxFrames = maxFrames
        self.maxTotalPixels = maxTotalPixels
        self.maxScans = maxScans
        self.maxWorkPixels = maxWorkPixels
    }

    /// The defaults of this platform: ``mobile`` on iOS, tvOS, watchOS and
    /// visionOS, the initializer's defaults (a server's) everywhere else.
    public static let `default`: DecodingLimits = platformDefault(isMobile: PlatformKind.current.isMobile)

    /// The defaults for an app on a phone, a TV or a watch: the initializer's,
    /// with ``maxTotalPixels`` at 50 megapixels, so an animation decoded to
    /// an ``AnimatedImage`` (every frame held as RGBA) takes at most 200 MB
    /// (frames × width × height × 4 bytes). An iOS 16 device may have 2 GB of
    /// memory shared with the system and other apps, and iOS ends an app
    /// that passes a device-dependent limit Apple does not publish; the
    /// server default of 1 gigapixel (4 GB) is far past that on every
    /// iPhone. 200 MB is a tenth of the smallest such device, one decode at
    /// a time (``DecodingConcurrency``): a 480×270 GIF of 385 frames, or
    /// 100 frames of 707×707. Stills keep 50 megapixels a frame (a 48 MP
    /// iPhone photo decodes; decoded to fit a view it is downsampled).
    public static let mobile = DecodingLimits(maxTotalPixels: 50_000_000)

    /// ``mobile`` when `isMobile`, else the initializer's defaults: the rule
    /// behind ``default``, a function so that both branches are tested on
    /// any platform.
    public static func platformDefault(isMobile: Bool) -> DecodingLimits {
        isMobile ? .mobile : DecodingLimits()
    }

    /// Throws unless `byteCount` is within ``maxInputBytes``.
    public func checkInput(byteCount: Int, format: ImageFormat?) throws(ImageCodecError) {
        guard byteCount <= maxInputBytes else {
            throw ImageCodecError(
                .limitExceeded, format: format,
                "\(format.map { "\($0) " } ?? "")input of \(byteCount.formattedWithSeparators) bytes"
                    + " exceeds the limit of \(maxInputBytes.formattedWithSeparators) bytes")
        }
    }

    /// Throws unless a `width`×`height` frame is positive and within ``maxPixelsPerFrame``.
    public func checkFrame(width: Int, height: Int, format: ImageFormat) throws(ImageCodecError) {
        guard width > 0, height > 0 else {
            throw ImageCodecError.corrupt(format, "invalid dimensions \(width)x\(height)")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixelsPerFrame else {
            throw ImageCodecError(
                .limitExceeded, format: format,
                "\(format) of \(width)x\(height) pixels exceeds the limit of"
                    + " \(maxPixelsPerFrame.formattedWithSeparators) pixels per frame")
        }
    }

    /// Throws unless an animation of `frames` frames on a `width`×`height`
    /// canvas is within ``maxFrames`` and ``maxTotalPixels``.
    public func checkAnimation(width: Int, height: Int, frames: Int, format: ImageFormat) throws(ImageCodecError) {
        try checkFrame(width: width, height: height, format: format)
        guard frames <= maxFrames else {
            throw ImageCodecError(
                .limitExceeded, format: format,
                "\(format) animation of \(frames.formattedWithSeparators) frames exceeds the limit of"
                    + " \(maxFrames.formattedWithSeparators) frames")
        }
        let (total, overflow) = (width * height).multipliedReportingOverflow(by: frames)
        guard !overflow, total <= maxTotalPixels else {
            throw ImageCodecError(
                .limitExceeded, format: format,
                "\(format) animation of \(frames) frames at \(width)x\(height) exceeds the limit of"
                    + " \(maxTotalPixels.formattedWithSeparators) pixels in all")
        }
        try checkWork(pixels: total, "decoding \(format) animation of \(frames) frames at \(width)x\(height)")
    }

    /// Throws unless `pixels` of work are within ``maxWorkPixels``.
    ///
    /// - Parameter what: The work, for the message (`"decoding WebP
    ///   animation of 1000 frames at 1000x1000"`).
    public func checkWork(pixels: Int, _ what: String) throws(ImageCodecError) {
        guard pixels > maxWorkPixels else { return }
        throw ImageCodecError(
            .limitExceeded, format: nil,
            "\(what) is \(pixels.formattedWithSeparators) pixels of work, over the budget of"
                + " \(maxWorkPixels.formattedWithSeparators) per request")
    }
}
