import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// A rule that leaves the format and the width to the CDN (`f_auto`,
/// `w_auto`) names one URL whose answer the CDN negotiates. The bridge keeps
/// it under that URL, so it must fetch it the same way for every client:
/// one fixed `Accept`, and none of the client's hints.
@Suite(.timeLimit(.suiteBound))
struct NegotiatedVariantTests {
    @Test func everyClientsFetchOfANegotiatedVariantIsTheSame() async throws {
        let image = SyntheticImages.photo(width: 32, height: 24, seed: 5)
        let upstream = ScriptedDataLoader(answering: .ok(try JPEGEncoder().encode(image)))
        upstream.inject(
            .ok(try WebPEncoder().encode(image), fields: ["cache-control": "no-store"]), whereURLContains: "f_auto")
        let rules = RewriteConfiguration(rules: [
            RewriteRule(
                name: "cloudinary", hosts: ["res.cloudinary.com"], dialect: .cloudinary, width: 750,
                automaticQuality: .standard, automaticFormat: true, widthFromClient: true)
        ])
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: try Rewriter(configuration: rules), dataLoader: upstream, dataCache: nil, memoryCache: nil))
        let bridge = ImageBridge(pipeline: pipeline)
        let url = try #require(URL(string: "https://res.cloudinary.com/demo/image/upload/sample.jpg"))
        let clients: [HTTPFieldList] = [
            ["Accept": "image/avif,image/webp,*/*", "Sec-CH-Width": "1125", "Sec-CH-DPR": "3", "Save-Data": "on"],
            ["Accept": "image/webp,*/*", "Width": "320", "DPR": "2", "Viewport-Width": "390"],
            ["Accept": "image/*"],
        ]
        for fields in clients {
            guard case .image(let plan) = bridge.route(DeliveryRequest(method: "GET", url: url, fields: fields)) else {
                Issue.record("not claimed: \(fields)")
                continue
            }
            _ = await bridge.deliver(plan)
        }
        let fetches = upstream.requests.filter { $0.url.absoluteString.contains("f_auto") }
        #expect(fetches.count == clients.count)
        #expect(
            fetches.allSatisfy {
                $0.url.absoluteString
                    == "https://res.cloudinary.com/demo/image/upload/"
                    + "w_auto:100:750,dpr_auto,c_limit,f_auto,q_auto/sample.jpg"
            })
        #expect(Set(fetches.map { $0.headers["Accept"] ?? "" }) == [pipeline.configuration.variantAccept])
        for name in ["Sec-CH-Width", "Sec-CH-DPR", "Save-Data", "Width", "DPR", "Viewport-Width"] {
            #expect(fetches.allSatisfy { $0.headers[name] == nil }, "\(name) reached the CDN")
        }
    }
}
