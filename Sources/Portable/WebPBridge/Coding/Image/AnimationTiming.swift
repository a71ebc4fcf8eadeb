/// How long an animation's frames show and how often it plays, decided once
/// for every decoder: the Linux GIF, APNG and WebP decoders and
/// ``ImageIOCodec`` read the values from the file and pass them through here,
/// so an animation plays the same on every platform.
public enum AnimationTiming {
    /// The delay shown for a frame whose file says 10 ms or less, 0 included.
    public static let shortDelayReplacement = 100

    /// The delay a frame is shown for: the file's delay, except that 10 ms or
    /// less (0 included, and anything negative) becomes 100 ms, as browsers
    /// do for every animated format (many GIFs say 0 and mean "default") and
    /// as SDWebImage and ImageIO's clamped delay keys do.
    public static func displayedDuration(milliseconds: Int) -> Int {
        milliseconds <= 10 ? shortDelayReplacement : milliseconds
    }

    /// ``displayedDuration(milliseconds:)`` of a delay in seconds, as ImageIO
    /// reports it, rounded to the millisecond and capped at 2³¹ − 1 ms; `nil`
    /// (no delay in the file) or a value that is not a number shows for 100 ms.
    public static func displayedDuration(seconds: Double?) -> Int {
        guard let seconds, !seconds.isNaN else { return shortDelayReplacement }
        let milliseconds = min(max((seconds * 1000).rounded(), -1), Double(Int32.max))
        return displayedDuration(milliseconds: Int(milliseconds))
    }

    /// How many times the animation plays (0: forever) from the loop field
    /// its file declares (`nil` when the file has none):
    /// - GIF, the NETSCAPE2.0 (or ANIMEXTS1.0) application extension's loop
    ///   value, which counts repeats after the first play: absent plays once
    ///   (1), 0 plays forever (0), N > 0 plays N + 1 times, as browsers and
    ///   gif2webp read it. ImageIO's `kCGImagePropertyGIFLoopCount` carries the
    ///   same field, absent when the file has none.
    /// - APNG `acTL` `num_plays`, WebP `ANIM` loop count and ImageIO's HEICS
    ///   loop count already count plays (0: forever); absent or negative,
    ///   the formats' default is forever.
    /// - A format that does not animate (JPEG, PNG, AVIF here): 0.
    public static func playCount(_ format: ImageFormat, declared: Int?) -> Int {
        switch format {
        case .gif:
            guard let declared else { return 1 }
            // The field is 16 bits; a larger value (from a reader that widened it) is capped there.
            return declared <= 0 ? 0 : min(declared, Int(UInt16.max)) + 1
        case .apng, .webp, .heic:
            guard let declared, declared > 0 else { return 0 }
            return declared
        case .jpeg, .png, .avif:
            return 0
        }
    }
}
