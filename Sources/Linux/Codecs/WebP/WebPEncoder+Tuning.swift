internal import CWebP

extension WebPEncoder {
    /// The finer settings of libwebp's lossy coder (`WebPConfig`,
    /// https://developers.google.com/speed/webp/docs/api and `cwebp`'s
    /// options of the same names, https://developers.google.com/speed/webp/docs/cwebp).
    /// Each default is libwebp's own (`WebPConfigInit`), so `Tuning()`
    /// changes nothing; ranges are checked when encoding.
    public struct Tuning: Sendable, Equatable {
        /// Segments (quantizer classes) the analysis sorts macroblocks into,
        /// 1–4. Default 4.
        public var segments: Int = 4
        /// Spatial noise shaping: how much the quantizer moves bits from flat
        /// to busy areas, 0–100. Default 50.
        public var snsStrength: Int = 50
        /// Loop (deblocking) filter strength, 0–100 (0 is off). Default 60.
        public var filterStrength: Int = 60
        /// Loop filter sharpness, 0–7 (0 is the sharpest). Default 0.
        public var filterSharpness: Int = 0
        /// The strong (normal) loop filter rather than the simple one. Default `true`.
        public var usesStrongFilter: Bool = true
        /// Let libwebp choose the filter strength per segment by trying
        /// them (`autofilter`). Default `false`.
        public var autofilter: Bool = false
        /// Token partitions as a power of two, 0–3 (1 to 8 partitions). Default 0.
        /// Methods 3–6 code through a token buffer in one partition and ignore it.
        public var partitions: Int = 0
        /// How much the coder may lower intra-4×4 quality to fit the first
        /// partition, 0–100 (`partition_limit`). Default 0.
        public var partitionLimit: Int = 0
        /// Analysis and coding passes, 1–10 (more only help a size or PSNR
        /// target). Default 1.
        public var passes: Int = 1
        /// Preprocessing filter bits, 0–7 (1 segment smoothing, 2 pseudo-random
        /// dithering). Default 0.
        public var preprocessing: Int = 0

        /// Creates libwebp's defaults; set the fields to change them.
        public init() {}

        /// Writes the settings into `config`; `WebPValidateConfig` checks them.
        func apply(to config: inout WebPConfig) {
            config.segments = Int32(segments)
            config.sns_strength = Int32(snsStrength)
            config.filter_strength = Int32(filterStrength)
            config.filter_sharpness = Int32(filterSharpness)
            config.filter_type = usesStrongFilter ? 1 : 0
            config.autofilter = autofilter ? 1 : 0
            config.partitions = Int32(partitions)
            config.partition_limit = Int32(partitionLimit)
            config.pass = Int32(passes)
            config.preprocessing = Int32(preprocessing)
        }
    }
}
