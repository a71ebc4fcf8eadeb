// Test helpers that need the server side or the C codecs build on Linux only;
// the portable ones (SeededGenerator, the off-the-global-executor trait) live
// in TestTraits, which this target re-exports.
@_exported public import TestTraits
