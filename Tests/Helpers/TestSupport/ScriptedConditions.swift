public import WebPBridge

/// A ``NetworkConditionSource`` that yields a script of conditions, then
/// ends its stream: a consumer that follows it has taken every one when
/// its `follow` returns.
public struct ScriptedConditions: NetworkConditionSource {
    public var script: [NetworkConditions]

    public init(_ script: [NetworkConditions]) {
        self.script = script
    }

    public func conditions() -> AsyncStream<NetworkConditions> {
        AsyncStream { continuation in
            for conditions in script { continuation.yield(conditions) }
            continuation.finish()
        }
    }
}
