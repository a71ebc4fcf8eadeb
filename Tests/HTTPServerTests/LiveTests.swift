import TestTraits
import Testing

/// Every test that runs a server on 127.0.0.1. One at a time: the machine
/// has few cores and some tests hold a thousand sockets or rely on short
/// timeouts.
@Suite(.serialized, .timeLimit(.suiteBound)) struct LiveTests {}
