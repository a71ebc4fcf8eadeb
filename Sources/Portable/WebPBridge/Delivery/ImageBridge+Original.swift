import Foundation

extension ImageBridge {
    /// The original handed over: fetched with the request's end-to-end
    /// fields — its `Accept` made to refuse WebP when the policy does not
    /// serve this client WebP, so a negotiating upstream cannot answer the
    /// original with WebP — and relayed through the hop-by-hop filter with
    /// ``vary`` merged into its `Vary`; with the fields the image was
    /// planned to ask for less by (``ImageRequest/addHints(to:)``). `reason`
    /// says why, for logs.
    func original(
        _ request: DeliveryRequest, _ decision: ClientDecision, _ reason: String, image: ImageDataResponse?
    ) async -> Delivery {
        let refusesWebP = decision.servedFormat != .webp
        let content = await relay(request, vary: vary, refusingWebP: refusesWebP, reason: reason)
        return delivery(request, content, image: image)
    }

    /// `request` fetched as it is and its answer relayed: what a bridge
    /// gives for a URL it does not transform (the web view's scheme bridge
    /// for an unrewritten URL on a host the rules name). `vary`, when set,
    /// is merged into the answer's `Vary`; `upstreamAccept`, when set,
    /// replaces the request's `Accept` (the route's, ``DeliveryRoute/passThrough(vary:upstreamAccept:)``).
    public func relay(_ request: DeliveryRequest, vary: String?, upstreamAccept: String? = nil) async -> Delivery {
        var request = request
        if let upstreamAccept { request.fields["Accept"] = upstreamAccept }
        return delivery(request, await relay(request, vary: vary, refusingWebP: false, reason: "passed through"))
    }

    private func relay(
        _ request: DeliveryRequest, vary: String?, refusingWebP: Bool, reason: String
    ) async -> Delivery.Content {
        var fields = HopByHopFields.requestFieldsToForward(request.fields)
        // `Via` as the adapter left it: the proxy's entry appended to the client's.
        for field in request.fields.fields(named: "Via") { fields.add(field) }
        if refusingWebP { fields["Accept"] = AcceptHeader.refusingWebP(request.accept) }
        // What the image was planned to ask for less by (Save-Data, the width bucket): the original too.
        request.image.addHints(to: &fields)
        let relay = configuration.relay
        let upstreamRequest = DataRequest(
            url: request.url, method: request.method, headers: fields, timeout: relay.limits.timeout,
            maxBodyBytes: relay.limits.maxBodyBytes, responseFieldLimits: relay.limits.fieldLimits)
        let loader = relay.loader ?? configuration.pipeline.configuration.dataLoader
        let loaded: DataResponse
        do {
            loaded = try await loader.load(upstreamRequest)
        } catch {
            if Task.isCancelled { return .cancelled }
            return .upstreamFailure(error, url: request.url.absoluteString)
        }
        guard (200...599).contains(loaded.statusCode) else { return .invalidUpstreamStatus(loaded.statusCode) }
        var relayed = HopByHopFields.responseFieldsToForward(loaded.headers)
        if let vary { relayed["Vary"] = VaryHeader.merging(vary, into: relayed.combinedValue(for: "Vary")) }
        let declared = loaded.headers["Content-Length"].flatMap(Int.init)
        return .original(
            reason: reason,
            relayed: RelayedResponse(
                url: loaded.url, statusCode: loaded.statusCode, fields: relayed,
                body: request.isHEAD ? Data() : loaded.body, declaredLength: declared,
                redirectLocation: loaded.redirectLocation))
    }
}
