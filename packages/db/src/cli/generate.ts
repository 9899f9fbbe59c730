// `prisma generate` without network: Prisma 7's CLI tries to download a native
// schema-engine binary first (blocked here) unless PRISMA_SCHEMA_ENGINE_BINARY
// names an existing file. `generate` itself runs on WebAssembly and never calls
// that binary, so any existing file will do.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(path.join(packageDir, 'package.json'));
const prismaCli = path.join(path.dirname(require.resolve('prisma/package.json')), 'build', 'index.js');

const engineStandIn =
  process.env.PRISMA_SCHEMA_ENGINE_BINARY && existsSync(process.env.PRISMA_SCHEMA_ENGINE_BINARY)
    ? process.env.PRISMA_SCHEMA_ENGINE_BINARY
    : existsSync('/bin/true')
      ? '/bin/true'
      : process.execPath;

const result = spawnSync(process.execPath, [prismaCli, 'generate', ...process.argv.slice(2)], {
  cwd: packageDir,
  // No stdin: CI runs without one and generate must never prompt.
  stdio: ['ignore', 'inherit', 'inherit'],
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: engineStandIn,
    // no update check / telemetry calls to the internet
    CHECKPOINT_DISABLE: '1',
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
  },
});

if (result.error) {
  console.error(`prisma generate could not start: ${result.error.message}`);
  process.exit(1);
}
if (result.status !== 0) {
  console.error(`prisma generate failed (${result.signal ? `signal ${result.signal}` : `exit code ${result.status}`})`);
  process.exit(result.status || 1);
}
