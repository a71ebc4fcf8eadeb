// The traits every suite carries (SeededGenerator, `blocking`, the
// off-the-global-executor trait) live in TestTraits, which the portable
// suites import alone; a suite that needs doubles imports this module, which
// re-exports them.
@_exported public import TestTraits
