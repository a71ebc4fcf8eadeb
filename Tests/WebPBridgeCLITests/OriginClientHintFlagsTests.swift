import Foundation
import ImageOrigin
import TestSupport
import TestTraits
import Testing

@testable import WebPBridgeCLI

/// `origin --client-hints` and `--save-data` reach the configuration; both
/// are off without them.
@Suite(.timeLimit(.suiteBound))
struct OriginClientHintFlagsTests {
    @Test(arguments: [
        ([String](), false, false), (["--client-hints"], true, false), (["--save-data"], false, true),
        (["--client-hints", "--save-data"], true, true),
    ])
    func flagsReachTheConfiguration(flags: [String], clientHints: Bool, saveData: Bool) throws {
        let folder = try TemporaryDirectory()
        let command = try OriginCommand(
            parsed: ParsedArguments(["--root", folder.url.path] + flags, configuration: OriginCommand.configuration))
        let configuration = try command.makeOrigin().configuration
        #expect(configuration.clientHints == clientHints)
        #expect(configuration.saveData == saveData)
    }
}
