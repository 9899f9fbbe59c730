// `pnpm start`: builds the server bundle when it is missing or stale (scripts/build.mjs),
// then runs it in this same process. No tsx and no further child process: the
// launcher chain above the service stays npx → pnpm → node (see
// packages/runtime/src/launcher.ts), and a signal sent to this process reaches the service.
import { pathToFileURL } from 'node:url';
import { ensureBuilt, serverBundle } from './build.mjs';

await ensureBuilt();
// stack traces name the TypeScript sources (the bundle's source map)
process.setSourceMapsEnabled(true);
await import(pathToFileURL(serverBundle).href);
