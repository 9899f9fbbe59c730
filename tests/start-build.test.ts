import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isLauncher } from '@bo/runtime';
import { onePagePdf } from './support/storage.js';

/**
 * `pnpm start` runs .build/server.mjs, built by scripts/build.mjs from the workspace's
 * TypeScript; it builds only when the sources changed since the last build (a stamp of
 * their paths, sizes and modification times).
 */
const root = path.resolve(import.meta.dirname, '..');

// its own output folder: a start elsewhere in the run rebuilding .build/ cannot race these checks
const buildDir = mkdtempSync(path.join(tmpdir(), 'bo-build-'));
afterAll(() => rmSync(buildDir, { recursive: true, force: true }));

let scripts = 0;
/** Runs `code` as an ES module file (not `-e`: a worker thread would inherit `--input-type`). */
function node(code: string): string {
  scripts += 1;
  const file = path.join(buildDir, `script-${scripts}.mjs`);
  writeFileSync(file, code.replaceAll("'./scripts/build.mjs'", JSON.stringify(path.join(root, 'scripts/build.mjs'))));
  return execFileSync(process.execPath, [file], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, BO_BUILD_DIR: buildDir },
  }).trim();
}

const fresh = () => node("import { isFresh } from './scripts/build.mjs'; console.log(isFresh());");

describe('the compiled start', () => {
  it('a second start does not rebuild: the build is fresh until a source changes', () => {
    // the first start (or this) builds when needed
    node("import { ensureBuilt } from './scripts/build.mjs'; await ensureBuilt({ log: () => {} });");
    expect(fresh()).toBe('true');
    const built = statSync(path.join(buildDir, 'server.mjs')).mtimeMs;
    expect(node("import { ensureBuilt } from './scripts/build.mjs'; console.log(await ensureBuilt());")).toBe('false');
    expect(statSync(path.join(buildDir, 'server.mjs')).mtimeMs).toBe(built);

    // a source file edited after the build makes it stale; as it was, fresh again
    const source = path.join(root, 'packages/runtime/src/config.ts');
    const before = statSync(source);
    try {
      utimesSync(source, before.atime, new Date(before.mtimeMs + 60_000));
      expect(fresh()).toBe('false');
    } finally {
      utimesSync(source, before.atimeMs / 1000, before.mtimeMs / 1000);
    }
    expect(fresh()).toBe('true');
  }, 60_000);

  it('the bundle holds the workspace code and imports every package from node_modules by path', () => {
    const code = readFileSync(path.join(buildDir, 'server.mjs'), 'utf8');
    // no bare package import is left for Node to resolve from .build/ (pnpm gives it no node_modules)
    const bare = [...code.matchAll(/\bfrom\s+"([^"]+)"/g)]
      .map((m) => m[1] ?? '')
      .filter((s) => !s.startsWith('node:') && !s.startsWith('.'));
    expect(bare).toEqual([]);
    // the render processes' script and the migrations folder are found beside their sources
    expect(code).toContain('packages/domain/src/rendering/render-pool.ts');
    expect(code).toContain('packages/db/src/migrations.ts');
    expect(code).not.toMatch(/from "@bo\//);
  });

  it('the compiled start is the service, not a launcher: the service watches sh and pnpm above it', () => {
    expect(isLauncher([process.execPath, path.join(root, 'scripts/start.mjs')])).toBe(false);
    expect(isLauncher(['sh', '-c', 'node scripts/start.mjs'])).toBe(true);
    expect(isLauncher([process.execPath, '/usr/lib/node_modules/pnpm/bin/pnpm.cjs', 'start'])).toBe(true);
  });

  it('bundled, the render pool still starts its render processes from its source folder: a PDF page and an invoice render', () => {
    const pdf = path.join(buildDir, 'one-page.pdf');
    writeFileSync(pdf, onePagePdf());
    const out = path.join(buildDir, 'render-pool.mjs');
    const answer = node(`
      import { readFileSync } from 'node:fs';
      import { bundle } from './scripts/build.mjs';
      await bundle('packages/domain/src/rendering/render-pool.ts', ${JSON.stringify(out)});
      const { RenderPool } = await import(${JSON.stringify(out)});
      const pool = new RenderPool();
      const page = await pool.run('e', { kind: 'pdf-thumbnail', bytes: readFileSync(${JSON.stringify(pdf)}), size: 64,
        maxPixels: 1e6, maxPaints: 1e4, maxContentBytes: 1e6 });
      const invoice = await pool.run('e', { kind: 'invoice-pdf', data: { title: 'Invoice', invoiceNumber: '1', invoiceDate: '2026-01-01',
        dueDate: null, company: { name: 'A', address: [], vatNumber: null, bankAccount: null }, debtor: { name: 'B', address: [] },
        subject: null, reference: null, lines: [], vatByClass: [], totalExcl: '0', totalVat: '0', totalIncl: '0', creditOf: null } });
      await pool.close();
      const head = (r, n) => (r.ok ? Buffer.from(r.bytes).subarray(0, n).toString('latin1') : r.reason + ': ' + r.message);
      console.log(head(page, 4).slice(1), head(invoice, 5));`);
    expect(answer).toBe('PNG %PDF-');
  }, 60_000);
});
