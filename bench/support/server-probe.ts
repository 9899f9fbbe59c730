export {};

/**
 * The service's own entry plus a memory probe for the benchmarks (never used in
 * production): over the IPC channel, "memory" answers process.memoryUsage() and
 * "gc" runs a full collection first (the child runs with --expose-gc), so a
 * benchmark can tell live memory from garbage the GC has not collected yet.
 */
process.on('message', (msg: unknown) => {
  if (msg !== 'memory' && msg !== 'gc') return;
  if (msg === 'gc') (globalThis as { gc?: () => void }).gc?.();
  process.send?.({ memory: process.memoryUsage() });
});
await import('../../apps/server/src/main.js');
