import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** the repository's root */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The node flags of package.json's `admin` script (`tsx [flags] packages/domain/src/cli/admin.ts`), so
 * that a benchmark runs the CLI in a child process as `pnpm admin` runs it (its heap bound included).
 */
export function adminNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const m = /^tsx((?: --\S+)*) packages\/domain\/src\/cli\/admin\.ts$/.exec(pkg.scripts.admin ?? '');
  if (!m) throw new Error(`package.json's admin script is not "tsx [node flags] <admin.ts>": ${pkg.scripts.admin}`);
  return (m[1] ?? '').split(' ').filter(Boolean);
}

/** argv for `process.execPath` that runs `admin <args>` as the `admin` script does */
export function adminArgv(args: string[]): string[] {
  return [...adminNodeFlags(), '--import', 'tsx', 'packages/domain/src/cli/admin.ts', ...args];
}
