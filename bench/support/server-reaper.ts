import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PG_BIN } from '../../tests/support/pg-cluster.js';

/**
 * A watch over the PostgreSQL servers a benchmark starts (tests/support/pg-cluster.ts): a detached process
 * (server-reaper-process.cjs) that, should this process end without cleaning up (killed, or a signal tsx
 * turns into SIGKILL), stops every server under the folders `add` was given and removes them (other
 * scratch folders may be given too: removed alike). `done()`
 * after the benchmark's own clean-up ends the watch.
 */
export function startServerReaper(): { add(root: string): void; done(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'bo-bench-reaper-'));
  const state = path.join(dir, 'folders');
  writeFileSync(state, '');
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'server-reaper-process.cjs');
  const child = spawn(process.execPath, [script, state, String(process.pid), PG_BIN], { detached: true, stdio: 'ignore' });
  child.unref();
  return {
    add(root) {
      appendFileSync(state, `${root}\n`);
    },
    done() {
      // the watch ends when its state file is gone (within half a second)
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
