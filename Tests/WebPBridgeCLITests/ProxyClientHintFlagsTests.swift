import BridgeProxy
import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import WebPBridgeCLI

/// `proxy --save-data` and `--client-hints` reach the bridge's core, and
/// its `Vary`; both are off without them.
@Suite(.timeLimit(.suiteBound))
struct ProxyClientHintFlagsTests {
    @Test(arguments: [
        ([String](), false, false), (["--save-data"], true, false), (["--client-hints"], false, true),
        (["--client-hints", "--save-data"], true, true),
    ])
    func flagsReachTheCore(flags: [String], saveData: Bool, clientHints: Bool) throws {
        let arguments = ["--upstream", "http://127.0.0.1:1", "--preset", "qiniu", "--host", "127.0.0.1"] + flags
        let command = try ProxyCommand(parsed: ParsedArguments(arguments, configuration: ProxyCommand.configuration))
        let core = try command.makeBridge(io: CapturedIO().io).imageBridge
        #expect(core.configuration.forwardsSaveData == saveData)
        #expect(core.configuration.forwardsClientHints == clientHints)
        #expect(core.vary.contains("Save-Data") == saveData)
        #expect(core.vary.contains("Sec-CH-Width") == clientHints)
    }
}
