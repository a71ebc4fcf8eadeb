import HTTPServer
import TestTraits
import Testing

@Suite(.timeLimit(.suiteBound)) struct ConfigurationTests {
    @Test func defaultsAreValidAndLoopback() throws {
        let configuration = HTTPServer.Configuration()
        try configuration.validate()
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.threadPoolSize >= 1)
        #expect(configuration.limits.maxConnectionsPerClient == 256)
        #expect(configuration.limits.maxConnections == 10_000)
    }

    @Test func connectionLimitFitsTheDescriptorLimit() {
        let limits = HTTPServer.Configuration.Limits()
        #expect(limits.connectionLimit(descriptorLimit: 1024) == 768)
        #expect(limits.connectionLimit(descriptorLimit: 1_048_576) == 10_000)
        #expect(limits.connectionLimit(descriptorLimit: 100) == 1)
    }

    @Test func rejectsBrokenInvariantsNamingTheField() {
        var configuration = HTTPServer.Configuration()
        configuration.limits.maxHeaderBytes = 100
        #expect(throws: HTTPServerError.self) { try configuration.validate() }
        do {
            try configuration.validate()
        } catch {
            #expect(error.kind == .invalidConfiguration)
            #expect(error.description.contains("maxHeaderBytes"))
        }
        configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 70_000)
        #expect(throws: HTTPServerError.self) { try configuration.validate() }
        configuration = HTTPServer.Configuration()
        configuration.limits.connectionTimeout = .milliseconds(10)
        #expect(throws: HTTPServerError.self) { try configuration.validate() }
    }

    @Test func endpointURLBracketsIPv6() {
        #expect(HTTPServer.Endpoint(host: "127.0.0.1", port: 8081).url == "http://127.0.0.1:8081")
        #expect(HTTPServer.Endpoint(host: "::1", port: 80).url == "http://[::1]:80")
    }
}
