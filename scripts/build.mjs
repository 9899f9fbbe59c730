// The production build: apps/server/src/main.ts and the workspace TypeScript it
// imports, bundled by esbuild into one ES module under .build/, so that a start
// runs plain JavaScript instead of tsx transpiling some 600 files every time.
//
// Only the workspace's own code is bundled. Every package from node_modules stays
// external, imported from its own files (a path relative to the bundle, resolved
// here as Node would from the importing source file): pnpm's strict layout gives
// the bundle no node_modules of its own, and native or WebAssembly packages
// (PGlite, sharp, argon2, pdf.js, Prisma's engines) then find their files as
// under tsx. `import.meta.url` in a bundled file is rewritten to that source
// file's URL (relative to the bundle), so createRequire, the migrations folder
// and the PDF worker thread (a plain .mjs beside its source) resolve as before.
//
// `node scripts/build.mjs` builds when stale; `--force` always builds.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// BO_BUILD_DIR: another output folder (the tests build into their own, never racing a start)
export const outDir = process.env.BO_BUILD_DIR ? path.resolve(process.env.BO_BUILD_DIR) : path.join(root, '.build');
export const serverBundle = path.join(outDir, 'server.mjs');
const stampFile = path.join(outDir, 'stamp');

// what the bundle is made of: the sources of every workspace package, their
// manifests (exports), the TypeScript settings esbuild reads, the lockfile
// (external paths name package versions) and this script
const SOURCE_DIRS = ['apps', 'packages'];
// the demo package (pnpm-workspace.yaml's `prisma`) keeps its sources at its top level
const PACKAGE_DIRS = ['prisma'];
const ROOT_FILES = ['package.json', 'pnpm-lock.yaml', 'tsconfig.base.json', 'tsconfig.json', 'scripts/build.mjs'];

function sourceFiles() {
  const files = ROOT_FILES.map((f) => path.join(root, f));
  for (const top of SOURCE_DIRS) {
    for (const pkg of readdirSync(path.join(root, top), { withFileTypes: true })) {
      if (!pkg.isDirectory()) continue;
      const dir = path.join(root, top, pkg.name);
      files.push(path.join(dir, 'package.json'), path.join(dir, 'tsconfig.json'));
      walk(path.join(dir, 'src'), files);
    }
  }
  for (const dir of PACKAGE_DIRS) walk(path.join(root, dir), files);
  return files;
}

function walk(dir, into) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules') walk(p, into);
    } else if (e.isFile()) into.push(p);
  }
}

/**
 * A cheap fingerprint of the sources: path, size and modification time of each
 * file (a few hundred stat calls, a few milliseconds), plus the checkout's own
 * path (the bundle holds paths relative to it). Any edit, new or deleted file changes it.
 */
export function sourceStamp() {
  const hash = createHash('sha256').update(`${root}\n${process.version}\n`);
  for (const f of sourceFiles().sort()) {
    try {
      const s = statSync(f);
      hash.update(`${path.relative(root, f)} ${s.size} ${Math.trunc(s.mtimeMs)}\n`);
    } catch {
      hash.update(`${path.relative(root, f)} -\n`);
    }
  }
  return hash.digest('hex');
}

/** True when the bundle exists and was built from the sources as they are now. */
export function isFresh(stamp = sourceStamp()) {
  try {
    statSync(serverBundle);
    return readFileSync(stampFile, 'utf8').trim() === stamp;
  } catch {
    return false;
  }
}

const relativeImport = (file) => {
  const rel = path.relative(outDir, file).split(path.sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
};

/** Keeps node_modules packages external, imported by path from where the importing source would find them. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === 'resolving' || args.path.startsWith('node:')) return undefined;
      const found = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'resolving',
      });
      if (found.errors.length > 0 || found.external) return undefined;
      if (!found.path.split(path.sep).includes('node_modules')) return undefined;
      return { path: relativeImport(found.path), external: true };
    });
  },
};

/** `import.meta.url` of a bundled file still names that file (see above). */
const sourceUrls = {
  name: 'source-urls',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?ts$/ }, async (args) => {
      if (args.path.split(path.sep).includes('node_modules')) return undefined;
      let contents = await readFile(args.path, 'utf8');
      if (contents.includes('import.meta.url')) {
        const rel = JSON.stringify(relativeImport(args.path));
        contents = contents.replaceAll('import.meta.url', `new URL(${rel}, import.meta.url).href`);
      }
      return { contents, loader: 'ts' };
    });
  },
};

/** Bundles one entry (the workspace's TypeScript in, every package external) into `outfile`, an ES module in outDir. */
export async function bundle(entry, outfile) {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [path.resolve(root, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [externalPackages, sourceUrls],
    // some bundled sources are CommonJS-minded (require of a builtin): give the bundle a require
    banner: {
      js: "import { createRequire as __boCreateRequire } from 'node:module'; const require = __boCreateRequire(import.meta.url);",
    },
  });
  await esbuild.stop?.();
}

/** Builds the server bundle (always) and records the stamp it was built from. */
export async function build({ log = console.error } = {}) {
  const started = performance.now();
  const stamp = sourceStamp();
  mkdirSync(outDir, { recursive: true });
  const tmp = path.join(outDir, `server.${process.pid}.mjs`);
  await bundle('apps/server/src/main.ts', tmp);
  // renamed into place only when complete, so a reader never sees half a bundle
  renameSync(`${tmp}.map`, `${serverBundle}.map`);
  const code = readFileSync(tmp, 'utf8').replace(`${path.basename(tmp)}.map`, `${path.basename(serverBundle)}.map`);
  writeFileSync(tmp, code);
  renameSync(tmp, serverBundle);
  writeFileSync(stampFile, `${stamp}\n`);
  log(`built ${path.relative(root, serverBundle)} in ${Math.round(performance.now() - started)} ms`);
}

/** Builds when the bundle is missing or older than the sources; returns whether it built. */
export async function ensureBuilt(opts = {}) {
  if (isFresh()) return false;
  await build(opts);
  return true;
}

if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  if (process.argv.includes('--force')) await build();
  else if (!(await ensureBuilt())) console.error('the build is up to date');
}
