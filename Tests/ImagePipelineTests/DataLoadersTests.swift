import TestTraits
import Testing
import WebPBridge

@Suite(.timeLimit(.suiteBound)) struct DataLoadersTests {
    @Test func platformDefaultIsCurlOnLinuxAndURLSessionElsewhere() {
        #if os(Linux)
            #expect(DataLoaders.platformDefault is CurlDataLoader)
        #else
            #expect(DataLoaders.platformDefault is URLSessionDataLoader)
        #endif
    }

    @Test func curlConfigurationDefaults() {
        let configuration = CurlDataLoader.Configuration()
        #expect(configuration.connectTimeout == .seconds(10))
        #expect(configuration.maxIdleConnections == 16)
        #expect(configuration.maxPooledHandles == 16)
        #expect(RedirectPolicy.anyHTTP.maxHops == 5)
    }
}
