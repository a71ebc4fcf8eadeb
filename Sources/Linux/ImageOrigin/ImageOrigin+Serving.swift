import Foundation
import HTTPServer
import WebPBridge

extension ImageOrigin {
    /// A variant to make: not in the cache when the request was answered.
    struct VariantJob {
        var file: FileResolver.File
        var sourceFormat: ImageFormat
        var sourceTag: String
        var pipeline: ProcessingPipeline
        /// The formats the client accepts, the preferred first; the smallest
        /// is served. Empty: the pipeline's own.
        var outputFormats: [ImageFormat]
        var variantKey: String
        var headers: HTTPFieldList
        /// The hints that shaped this variant, when the origin honours any.
        var hinted: HintedRequest?
        /// `Save-Data: on` selected this variant: its quality is searched at
        /// the Save-Data target (``ImageTransformer/transform(_:pipeline:format:saveData:)``,
        /// the one place Save-Data touches encoding).
        var saveData: Bool { hinted?.sizing.saveData ?? false }
        /// When a hint changed ``pipeline``: the pipeline the URL alone asks for.
        var unhintedPipeline: ProcessingPipeline?
        /// The request said `If-None-Match: *`: answer 304 once the variant
        /// exists, the error if it cannot be made.
        var notModifiedOnceMade = false
    }

    /// Serves `file` as it is, or a cached variant of it; or says which
    /// variant to make.
    func serve(_ file: FileResolver.File, target: Target, request: HTTPRequest) -> Answer {
        let facts = sources.facts(about: file, derive: deriveFacts)
        guard let sourceFormat = facts.format else {
            // With `ignore-error/1` a source that is not an image is served as it is, as any failure is.
            guard target.pipeline?.ignoresErrors ?? true else {
                return .ready(.text(.unsupportedMediaType, "source is not an image"))
            }
            // A page, a stylesheet, a script: the site's other files, as they are.
            let headers: HTTPFieldList = [
                "Last-Modified": facts.lastModified, "Cache-Control": configuration.siteCacheControl,
                "X-Content-Type-Options": "nosniff",
            ]
            return serveAsIs(
                file, tag: facts.tag, contentType: SiteMediaTypes.type(forPath: file.path), headers: headers,
                request: request)
        }
        // Negotiation applies when the request names no output format: to JPEG and PNG, and under
        // --auto-format to GIF too (an animation becomes an animated WebP, or stays a GIF).
        let negotiable =
            (configuration.autoWebP || configuration.autoFormat) && target.pipeline?.outputFormat == nil
            && (sourceFormat == .jpeg || sourceFormat == .png || (configuration.autoFormat && sourceFormat == .gif))
        let negotiated =
            negotiable
            ? FormatNegotiation.candidates(
                accept: request.headers.combinedValue(for: "Accept"), sourceFormat: sourceFormat,
                autoWebP: configuration.autoWebP,
                autoFormat: configuration.autoFormat) : []
        var headers: HTTPFieldList = ["Last-Modified": facts.lastModified, "Cache-Control": configuration.cacheControl]
        if negotiable { headers["Vary"] = VaryHeader.value(listing: ["Accept"]) }
        // Sizes from the client, when honoured: every hint field in Vary, sent or not.
        let hinted = clientHintSizing(for: request, sourceFormat: sourceFormat)
        if let hinted {
            headers["Vary"] = VaryHeader.merging(VaryHeader.value(listing: hinted.varyFields), into: headers["Vary"])
        }
        let sizing = hinted?.sizing ?? ClientHints.Sizing()

        // Save-Data alone leaves a plain file as it is: a re-encoded copy at the same size may be larger.
        guard target.pipeline != nil || !negotiated.isEmpty || sizing.maxWidth != nil else {
            return serveAsIs(
                file, tag: facts.tag, contentType: sourceFormat.mimeType, headers: headers, request: request)
        }

        let unhinted = target.pipeline ?? ProcessingPipeline(steps: [], ignoresErrors: true)
        let pipeline = sizing.maxWidth.map { Self.pipeline(unhinted, atMostWidth: $0) } ?? unhinted
        // One key, one ETag per negotiated format: a 304 answers for the format it was made in.
        // The tag also covers the encoder settings, which decide the bytes as much as the key does.
        // The hints' bucket and Save-Data are in both (and nothing is added without them).
        let formatsKey = negotiated.isEmpty ? "-" : negotiated.map(\.rawValue).joined(separator: "+")
        var variantKey = "\(facts.tag)|\(target.transformationKey)|\(formatsKey)"
        if !sizing.isNone { variantKey += "|" + sizing.key }
        let etag = EntityTag.strong(Self.digest("\(variantKey)|\(encodingFingerprint)"))
        headers["ETag"] = etag
        let remembered = variants.value(for: variantKey)
        let cached = try? remembered?.get()
        // `If-None-Match: *` matches only a representation that exists: a variant not made yet is made first
        // (and a refused one refused again).
        let waitsForVariant = cached == nil && EntityTag.isWildcard(request.headers["If-None-Match"])
        if !waitsForVariant, isNotModified(request, etag: etag, modified: file.modified) {
            return .ready(HTTPResponse(status: .notModified, headers: headers))
        }
        if remembered != nil { metrics.increment(Self.cacheFamily, labels: "result=\"hit\"") }
        if let cached {
            if let hinted, let widths = cached.widths {
                headers["Content-DPR"] = Self.contentDPR(
                    servedWidth: widths.served, unhintedWidth: widths.unhinted, hints: hinted.hints)
            }
            if let quality = cached.quality { headers[ImageTransformer.qualityField] = quality }
            return .ready(
                .bytes(cached.bytes, contentType: cached.format.mimeType, headers: headers), fromVariantCache: true)
        }
        let job = VariantJob(
            file: file, sourceFormat: sourceFormat, sourceTag: facts.tag, pipeline: pipeline,
            outputFormats: negotiated, variantKey: variantKey, headers: headers, hinted: hinted,
            unhintedPipeline: sizing.maxWidth == nil ? nil : unhinted,
            notModifiedOnceMade: waitsForVariant)
        guard case .failure(let refusal) = remembered else { return .variant(job) }
        return .ready(answer(failing: job, refusal), fileSize: file.size)
    }

    /// Makes, caches and serves a variant that was not in the cache.
    func makeVariant(_ job: VariantJob) async -> HTTPResponse {
        metrics.increment(Self.cacheFamily, labels: "result=\"miss\"")
        var headers = job.headers
        let result = await transform(
            job.file, pipeline: job.pipeline, formats: job.outputFormats, saveData: job.saveData,
            unhinted: job.unhintedPipeline)
        switch result {
        case .success(let variant):
            variants.insert(.success(variant), cost: variant.bytes.count, for: job.variantKey)
            if let hinted = job.hinted, let widths = variant.widths {
                headers["Content-DPR"] = Self.contentDPR(
                    servedWidth: widths.served, unhintedWidth: widths.unhinted, hints: hinted.hints)
            }
            if job.notModifiedOnceMade { return HTTPResponse(status: .notModified, headers: headers) }
            if let quality = variant.quality { headers[ImageTransformer.qualityField] = quality }
            return .bytes(variant.bytes, contentType: variant.format.mimeType, headers: headers)
        case .failure(.queueFull):
            return .text(
                .serviceUnavailable, "too many transformations queued; retry shortly",
                headers: ["Retry-After": String(configuration.retryAfterSeconds)])
        case .failure(.memoryBusy(let bytes)):
            return .text(
                .serviceUnavailable,
                "the variant needs about \(Self.mebibytes(bytes)) MiB, the memory for work in flight is taken"
                    + " and others wait for it; retry shortly",
                headers: ["Retry-After": String(configuration.retryAfterSeconds)])
        case .failure(.transform(let error)):
            if error.statusCode == 413 {
                variants.insert(
                    .failure(error), cost: error.message.utf8.count + Self.refusalOverheadBytes, for: job.variantKey)
            }
            return answer(failing: job, error)
        }
    }

    /// The answer to `job` when its variant cannot be made: the error's
    /// status and message, or with `ignore-error/1` the source as it is,
    /// as the CDN does.
    private func answer(failing job: VariantJob, _ error: TransformError) -> HTTPResponse {
        guard job.pipeline.ignoresErrors else { return .text(HTTPStatus(code: error.statusCode), error.message) }
        var headers = job.headers
        headers["ETag"] = EntityTag.strong(job.sourceTag)
        if job.notModifiedOnceMade { return HTTPResponse(status: .notModified, headers: headers) }
        return .file(path: job.file.path, contentType: job.sourceFormat.mimeType, headers: headers)
    }

    /// Serves `file` as it is, an image or any other file: `ETag` and
    /// `Last-Modified` with `headers`, `304` for a conditional request that
    /// matches, and one byte range for a `GET` that asks (``ByteRangeRequest``;
    /// `If-Range` honoured): `206`, or `416` when no byte is in the range.
    private func serveAsIs(
        _ file: FileResolver.File, tag: String, contentType: String, headers: HTTPFieldList, request: HTTPRequest
    ) -> Answer {
        var headers = headers
        let etag = EntityTag.strong(tag)
        headers["ETag"] = etag
        headers["Accept-Ranges"] = "bytes"
        if isNotModified(request, etag: etag, modified: file.modified) {
            return .ready(HTTPResponse(status: .notModified, headers: headers))
        }
        // RFC 9110 §14.2: Range is defined for GET only.
        if request.method == .get, let range = request.headers["Range"],
            rangeApplies(request.headers["If-Range"], etag: etag, lastModified: headers["Last-Modified"])
        {
            switch ByteRangeRequest.resolve(range, length: file.size) {
            case .whole: break
            case .range(let bytes):
                headers["Content-Range"] = "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(file.size)"
                headers["Content-Type"] = contentType
                // A part is rare: sent from the file, whether or not the whole is in memory.
                let body = HTTPResponse.Body.file(
                    path: file.path, offset: UInt64(bytes.lowerBound), length: UInt64(bytes.count))
                return .ready(HTTPResponse(status: .partialContent, headers: headers, body: body))
            case .unsatisfiable:
                headers["Content-Range"] = "bytes */\(file.size)"
                return .ready(
                    .text(.rangeNotSatisfiable, "no byte of the file is in the range asked", headers: headers))
            }
        }
        if let bytes = sourceBytes(of: file, tag: tag) {
            return .ready(.bytes(bytes, contentType: contentType, headers: headers))
        }
        return .ready(.file(path: file.path, contentType: contentType, headers: headers), fileSize: file.size)
    }

    /// RFC 9110 §13.1.5: a range applies without `If-Range`, or when
    /// `If-Range` names the current representation — its strong tag, or
    /// exactly its `Last-Modified` date; otherwise the whole is sent.
    private func rangeApplies(_ ifRange: String?, etag: String, lastModified: String?) -> Bool {
        guard let ifRange else { return true }
        let condition = ifRange.trimmingCharacters(in: .whitespaces)
        if condition.hasPrefix("\"") { return condition == etag }
        if condition.hasPrefix("W/") { return false }
        guard let date = HTTPDate.parse(condition), let lastModified = lastModified.flatMap(HTTPDate.parse) else {
            return false
        }
        return date == lastModified
    }

    /// The bytes of a small source file from memory, read on first use
    /// and kept while the file keeps its version (the key holds its tag);
    /// `nil` for files too large to keep, or unreadable (then sent from disk).
    /// Kept as ``BodyBytes``, so a hit is sent without a copy.
    ///
    /// libmicrohttpd sends a file body with its headers in a separate
    /// segment and toggles TCP_CORK/TCP_NODELAY around two sendfile calls;
    /// a memory body goes out with its headers in one sendmsg. Measured
    /// for a 155 KB JPEG: 90 us of CPU per request from disk, about 65
    /// from memory, despite the copy into the socket.
    private func sourceBytes(of file: FileResolver.File, tag: String) -> BodyBytes? {
        // A file the cache could not keep would be read for every request.
        guard file.size <= min(configuration.maxMemoryServedFileBytes, configuration.sourceCacheBytes) else {
            return nil
        }
        let key = file.path + "|" + tag
        if let bytes = sourceFiles.value(for: key) { return bytes }
        guard let read = try? Data(contentsOf: URL(fileURLWithPath: file.path)), read.count == file.size else {
            return nil
        }
        let bytes = BodyBytes(read)
        sourceFiles.insert(bytes, cost: bytes.count, for: key)
        return bytes
    }

    enum VariantFailure: Error {
        case queueFull
        /// The variant's estimated peak does not fit beside the work in flight
        /// now, and the line waiting for memory is full.
        case memoryBusy(Int)
        case transform(TransformError)
    }

    /// Runs the transformation on the bounded queue, timing it.
    /// - Parameters:
    ///   - saveData: Made for `Save-Data: on`: the transformer searches its
    ///     quality at ``ImageTransformer/Configuration/saveDataQualityTarget``.
    ///   - unhinted: When a client hint changed `pipeline`, the pipeline
    ///     without it: the variant records its own width and the width this
    ///     would make (from the output's and the source's headers), for
    ///     `Content-DPR`.
    private func transform(
        _ file: FileResolver.File, pipeline: ProcessingPipeline, formats: [ImageFormat], saveData: Bool = false,
        unhinted: ProcessingPipeline? = nil
    ) async -> Result<Variant, VariantFailure> {
        let transformer = self.transformer
        let maxBytes = configuration.transformer.maxSourceBytes
        let workInFlight = self.workInFlight
        do {
            let clock = ContinuousClock()
            let start = clock.now
            let output = try await queue.run { () throws -> Variant in
                guard file.size <= maxBytes else {
                    throw TransformError.tooLarge("source of \(file.size) bytes exceeds the \(maxBytes)-byte limit")
                }
                let source = try Data(contentsOf: URL(fileURLWithPath: file.path))
                // Charged to the memory budget before anything is decoded.
                let cost = try transformer.cost(of: source, pipeline: pipeline, smallestOf: formats, saveData: saveData)
                guard cost.peakBytes <= workInFlight.capacityBytes else {
                    throw TransformError.tooLarge(
                        "the variant needs about \(Self.mebibytes(cost.peakBytes)) MiB, more than the"
                            + " \(Self.mebibytes(workInFlight.capacityBytes)) MiB the memory budget gives work in"
                            + " flight (a quarter of --memory-budget)")
                }
                // Waits while others hold the memory, when the line for it has room (``WorkInFlight``).
                guard workInFlight.reserve(cost.peakBytes) else {
                    throw VariantFailure.memoryBusy(cost.peakBytes)
                }
                defer { workInFlight.release(cost.peakBytes) }
                let output = try transformer.transform(
                    source, pipeline: pipeline, smallestOf: formats, saveData: saveData)
                var variant = Variant(
                    bytes: BodyBytes(output.data), format: output.format, quality: output.qualityFieldValue)
                if let unhinted, let served = try? ImageInfo(output.data),
                    let info = try? ImageInfo(source, limits: transformer.configuration.limits),
                    let size = try? ImageTransformer.outputSize(of: unhinted, width: info.width, height: info.height)
                {
                    // A plain URL the hint did not shrink is the file itself, not a re-encoded copy.
                    if unhinted.steps.isEmpty, formats.isEmpty, served.width == size.width {
                        return Variant(bytes: BodyBytes(source), format: info.format, widths: (size.width, size.width))
                    }
                    variant.widths = (served.width, size.width)
                }
                return variant
            }
            let elapsed = clock.now - start
            metrics.observe(
                Self.transformFamily,
                Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            return .success(output)
        } catch is WorkQueue.Full {
            return .failure(.queueFull)
        } catch let failure as VariantFailure {
            return .failure(failure)
        } catch let error as TransformError {
            return .failure(.transform(error))
        } catch {
            return .failure(.transform(.failed("cannot read the source: \(error.localizedDescription)")))
        }
    }

    /// `If-None-Match` wins over `If-Modified-Since`, as RFC 9110 says; a
    /// date later than the server's clock is invalid and ignored (§13.1.3),
    /// or a client could pin any future change as "not modified".
    private func isNotModified(_ request: HTTPRequest, etag: String, modified: Date) -> Bool {
        if let ifNoneMatch = request.headers["If-None-Match"] {
            return EntityTag.ifNoneMatch(ifNoneMatch, matches: etag)
        }
        if let since = request.headers["If-Modified-Since"].flatMap(HTTPDate.parse), since <= Date() {
            return modified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
        }
        return false
    }

    /// What every answer about `file` needs: its format, tag and date.
    private func deriveFacts(_ file: FileResolver.File) -> SourceFacts.Facts {
        SourceFacts.Facts(
            format: sniffFile(file.path), tag: sourceTag(file), lastModified: HTTPDate.format(file.modified))
    }

    /// Identifies the file's content: inode, size and modification time.
    private func sourceTag(_ file: FileResolver.File) -> String {
        let modified = Int(file.modified.timeIntervalSince1970 * 1000)
        return "\(String(file.inode, radix: 16))-\(String(file.size, radix: 16))-\(String(modified, radix: 16))"
    }

    /// The format of a file from its first bytes.
    private func sniffFile(_ path: String) -> ImageFormat? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        // Enough for RIFF/WEBP, JPEG, GIF and PNG chunks up to a typical first IDAT.
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        return ImageFormat.sniffIfImage(head)
    }

    /// `bytes` in whole MiB, rounded up, for messages.
    static func mebibytes(_ bytes: Int) -> Int { (bytes + (1 << 20) - 1) >> 20 }

    /// FNV-1a, 64 bits, in hex: short stable ETags from long keys.
    static func digest(_ text: String) -> String {
        var digest = EntityTag.Digest()
        digest.update(text.utf8)
        return String(digest.value, radix: 16)
    }
}
