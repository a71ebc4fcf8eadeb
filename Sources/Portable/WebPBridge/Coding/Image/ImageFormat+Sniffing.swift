public import Foundation

extension ImageFormat {
    /// The format of `data`, from its magic bytes alone (never from a name or
    /// a `Content-Type`).
    ///
    /// A PNG is reported as ``apng`` when an `acTL` chunk precedes the first
    /// `IDAT`, as the APNG specification requires.
    ///
    /// AVIF is an ISO-BMFF file whose leading `ftyp` box names `avif` (a
    /// still) or `avis` (an image sequence) as its major or a compatible
    /// brand, as the AVIF specification's brands section requires
    /// (https://aomediacodec.github.io/av1-avif/#brands-overview).
    ///
    /// HEIC is an ISO-BMFF file whose leading `ftyp` box names an HEVC brand
    /// of HEIF (ISO/IEC 23008-12) as its major or a compatible brand: `heic`,
    /// `heix`, `heim` or `heis` (HEVC images: the `image/heic` registration,
    /// https://www.iana.org/assignments/media-types/image/heif) or `hevc`,
    /// `hevx`, `hevm` or `hevs` (HEVC image sequences: the
    /// `image/heic-sequence` registration,
    /// https://www.iana.org/assignments/media-types/image/heic-sequence). The
    /// structural brand `mif1` alone is not enough (any codec may fill it);
    /// `mif1` with a compatible `heic`, as iPhones write, is HEIC. AVIF's
    /// brands are tested first, so a file naming both is AVIF.
    ///
    /// - Throws: ``ImageCodecError/Kind/unknownFormat`` for anything else.
    public static func sniff(_ data: Data) throws(ImageCodecError) -> ImageFormat {
        if let format = sniffIfImage(data) { return format }
        let preview = data.prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ")
        throw ImageCodecError(
            .unknownFormat, format: nil,
            data.isEmpty
                ? "not an image: the data is empty"
                : "not a WebP, JPEG, PNG, GIF, AVIF or HEIC image (first bytes: \(preview))")
    }

    /// The format of `data`, or `nil` when the magic bytes match none.
    public static func sniffIfImage(_ data: Data) -> ImageFormat? {
        data.withUnsafeBytes { raw -> ImageFormat? in
            let bytes = raw.bindMemory(to: UInt8.self)
            if bytes.count >= 12, bytes.starts(with: riffMagic), bytes[8..<12].elementsEqual(webpMagic) {
                return .webp
            }
            if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF {
                return .jpeg
            }
            if bytes.count >= 8, bytes.starts(with: pngSignature) {
                return PNGChunkReader.containsAnimationControl(bytes) ? .apng : .png
            }
            if bytes.count >= 6, bytes.starts(with: gif87Magic) || bytes.starts(with: gif89Magic) {
                return .gif
            }
            if isAVIF(bytes) { return .avif }
            if ftypNames(bytes, { brand in heicBrands.contains { brand.elementsEqual($0) } }) { return .heic }
            return nil
        }
    }

    /// Whether `data`, sniffed as `format`, may hold more than one frame,
    /// read from its header alone: a GIF or an APNG; a WebP whose `VP8X`
    /// chunk sets the animation flag (0x02 of its first byte, the WebP
    /// container specification's "Extended File Format"); an AVIF whose
    /// `ftyp` box names `avis` (an image sequence) as its major or a
    /// compatible brand; a HEIC whose `ftyp` box names an HEVC image
    /// sequence brand (`hevc`, `hevx`, `hevm`, `hevs`). A caller that scales
    /// stills decodes these whole instead, keeping their frames.
    public static func mayBeAnimated(_ data: Data, format: ImageFormat) -> Bool {
        switch format {
        case .gif, .apng: return true
        case .jpeg, .png: return false
        case .webp:
            return data.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                return bytes.count > 20 && bytes[12..<16].elementsEqual(vp8xMagic) && bytes[20] & 0x02 != 0
            }
        case .avif:
            return data.withUnsafeBytes { raw in
                ftypNames(raw.bindMemory(to: UInt8.self)) { $0.elementsEqual(avisBrand) }
            }
        case .heic:
            return data.withUnsafeBytes { raw in
                ftypNames(raw.bindMemory(to: UInt8.self)) { brand in
                    heicSequenceBrands.contains { brand.elementsEqual($0) }
                }
            }
        }
    }

    /// Whether `bytes` starts with an `ftyp` box (size, `ftyp`, major brand,
    /// minor version, compatible brands) that names `avif` or `avis`. Only
    /// the box's bytes that are present are read.
    private static func isAVIF(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        ftypNames(bytes) { $0.elementsEqual(avifBrand) || $0.elementsEqual(avisBrand) }
    }

    /// Whether `bytes` starts with an `ftyp` box whose major brand or one
    /// of whose compatible brands `isWanted`; only the box's bytes that are
    /// present are read.
    private static func ftypNames(
        _ bytes: UnsafeBufferPointer<UInt8>, _ isWanted: (Slice<UnsafeBufferPointer<UInt8>>) -> Bool
    ) -> Bool {
        guard bytes.count >= 12, bytes[4..<8].elementsEqual(ftypMagic) else { return false }
        let declared = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard declared >= 16 else { return false }
        if isWanted(bytes[8..<12]) { return true }
        let end = min(declared, bytes.count)
        var offset = 16
        while offset + 4 <= end {
            if isWanted(bytes[offset..<(offset + 4)]) { return true }
            offset += 4
        }
        return false
    }

    package static let riffMagic: [UInt8] = Array("RIFF".utf8)
    package static let webpMagic: [UInt8] = Array("WEBP".utf8)
    package static let vp8xMagic: [UInt8] = Array("VP8X".utf8)
    package static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    package static let gif87Magic: [UInt8] = Array("GIF87a".utf8)
    package static let gif89Magic: [UInt8] = Array("GIF89a".utf8)
    package static let ftypMagic: [UInt8] = Array("ftyp".utf8)
    package static let avifBrand: [UInt8] = Array("avif".utf8)
    package static let avisBrand: [UInt8] = Array("avis".utf8)
    /// HEIF's HEVC image sequence brands (`image/heic-sequence`).
    package static let heicSequenceBrands: [[UInt8]] = ["hevc", "hevx", "hevm", "hevs"].map { Array($0.utf8) }
    /// HEIF's HEVC image brands (`image/heic`) and sequence brands.
    package static let heicBrands: [[UInt8]] =
        ["heic", "heix", "heim", "heis"].map { Array($0.utf8) } + heicSequenceBrands
}
