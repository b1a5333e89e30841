import fc from 'fast-check';

// Property tests explore new random cases on every local run; in CI they use a
// fixed seed (override with FC_SEED) so a landing never depends on luck.
// A failing property prints its seed and path either way, for replay.
if (process.env['CI'] || process.env['FC_SEED']) fc.configureGlobal({ seed: Number(process.env['FC_SEED'] ?? 20261122) });
