import { moveEnvironment } from '../placement/move-environment.js';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FilesystemStorage, openDatabase } from '@bo/db';
import { abortEnvironmentCopy } from '../environments-copy/abort-environment-copy.js';
import type { CopyContext } from '../environments-copy/copy-context.js';
import { copyEnvironment, resumeEnvironmentCopy } from '../environments-copy/copy-environment.js';
import { exportEnvironment } from '../environments-copy/export-environment.js';
import { importEnvironment, resumeEnvironmentImport } from '../environments-copy/import-environment.js';
import { progressOn } from '../environments-copy/progress.js';
import { createCaller } from '../router.js';
import { systemClock } from '../shared/clock.js';
import { toDomainError } from '../shared/errors.js';
import { parseRights } from '../shared/rights.js';

/**
 * Internal administration: calls the tRPC router in process (no HTTP).
 * Uses DATABASE_URL, or the embedded database in DATA_DIR (joining a running
 * service's socket when it holds the files).
 */
const USAGE = `usage:
  npx -y pnpm@10.34.9 admin environment create <name>
  npx -y pnpm@10.34.9 admin environment copy <from> <to> [--batch-size <n>] [--json]
  npx -y pnpm@10.34.9 admin environment copy --resume <to>      (goes on with a killed copy)
  npx -y pnpm@10.34.9 admin environment copy --abort <to>       (removes a killed copy or import)
  npx -y pnpm@10.34.9 admin environment export <env> <file>     (gzip NDJSON, files included)
  npx -y pnpm@10.34.9 admin environment import <file> <env> [--resume]
  npx -y pnpm@10.34.9 admin environment move <env> <cluster> [--batch-size <n>] [--json]
                                                    (to another cluster of DATABASE_URLS, by position: 0 is the first)
  npx -y pnpm@10.34.9 admin user create --environment <env> --email <email> --rights <module:level,...> [--name <name>]
  npx -y pnpm@10.34.9 admin token create --environment <env> --user <email> [--label <label>] [--json]
  npx -y pnpm@10.34.9 admin token list --environment <env> [--json]
  npx -y pnpm@10.34.9 admin token delete --environment <env> --key <key>
  npx -y pnpm@10.34.9 admin maintenance on [--environment <env>] [--message <text>] [--until <ISO date-time>]
  npx -y pnpm@10.34.9 admin maintenance off [--environment <env>]
  npx -y pnpm@10.34.9 admin maintenance list [--json]
  npx -y pnpm@10.34.9 admin password set --environment <env> --email <email>   (reads the password from standard input)
  npx -y pnpm@10.34.9 admin login-link create --environment <env> --email <email> [--base-url https://<env>.<host>] [--json]
  (without --environment, maintenance applies to every environment)
rights: crm, projects, sales, hours, hrm, invoices, costs, timers, timeline, documents, customfields,
        workflows, webhooks, settings (or all) with none, read or write, e.g. all:write or crm:write,projects:read`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      environment: { type: 'string' },
      email: { type: 'string' },
      user: { type: 'string' },
      name: { type: 'string' },
      rights: { type: 'string' },
      label: { type: 'string' },
      key: { type: 'string' },
      message: { type: 'string' },
      until: { type: 'string' },
      'base-url': { type: 'string' },
      'batch-size': { type: 'string' },
      resume: { type: 'boolean', default: false },
      abort: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const [area, action, arg, arg2] = positionals;
  if (values.help || !area || !action) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const need = (name: keyof typeof values): string => {
    const v = values[name];
    if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
    return v;
  };

  const dataDir = path.resolve(process.env.DATA_DIR ?? '.data');
  const database = await openDatabase({
    databaseUrl: process.env.DATABASE_URL || undefined,
    databaseUrls: (process.env.DATABASE_URLS ?? '').split(',').map((u) => u.trim()),
    dataDir,
  });
  const caller = createCaller({ prisma: database.prisma, principal: { kind: 'system' }, clock: systemClock });
  try {
    const print = (data: unknown, text: string) => console.log(values.json ? JSON.stringify(data) : text);
    switch (`${area} ${action}`) {
      case 'environment create': {
        if (!arg) throw new UsageError('give the environment name');
        const env = await caller.admin.environment.create({ name: arg });
        print(env, `environment ${env.name} created (${env.id})`);
        return 0;
      }
      case 'environment copy':
      case 'environment export':
      case 'environment import': {
        const batchSize = values['batch-size'] === undefined ? undefined : Number(values['batch-size']);
        if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize > 0)) {
          throw new UsageError('--batch-size must be a positive whole number');
        }
        const ctx: CopyContext = {
          prisma: database.prisma,
          storage: new FilesystemStorage(path.join(dataDir, 'files')),
          progress: progressOn(process.stderr),
          batchSize,
        };
        const need2 = (what: string) => {
          if (!arg || !arg2) throw new UsageError(what);
          return [arg, arg2] as const;
        };
        if (action === 'copy' && (values.resume || values.abort)) {
          if (!arg) throw new UsageError('give the environment the copy goes to');
          if (values.abort) {
            const r = await abortEnvironmentCopy(ctx, { to: arg });
            print(r, `copy to ${arg} aborted`);
          } else {
            const r = await resumeEnvironmentCopy(ctx, { to: arg });
            print(r, `environment ${r.environment.name} copied (${r.rows} rows, ${r.files} files)`);
          }
          return 0;
        }
        if (action === 'copy') {
          const [from, to] = need2('give the source and the new environment: copy <from> <to>');
          const started = performance.now();
          const r = await copyEnvironment(ctx, { from, to });
          const seconds = (performance.now() - started) / 1000;
          print(
            { ...r, seconds },
            `environment ${r.environment.name} copied from ${from} (${r.rows} rows, ${r.files} files, ${seconds.toFixed(1)} s)`,
          );
        } else if (action === 'export') {
          const [environment, file] = need2('give the environment and the file: export <env> <file>');
          const r = await exportEnvironment(ctx, { environment, file: path.resolve(file) });
          print(r, `environment ${environment} exported to ${file} (${r.rows} rows, ${r.files} files)`);
        } else {
          const [file, environment] = need2('give the file and the new environment: import <file> <env>');
          const input = { file: path.resolve(file), environment };
          const r = values.resume ? await resumeEnvironmentImport(ctx, input) : await importEnvironment(ctx, input);
          print(r, `environment ${r.environment.name} imported from ${file} (${r.rows} rows, ${r.files} files)`);
        }
        return 0;
      }
      case 'environment move': {
        if (!arg || arg2 === undefined || !/^\d+$/.test(arg2))
          throw new UsageError('give the environment and the cluster: move <env> <cluster>');
        const batchSize = values['batch-size'] === undefined ? undefined : Number(values['batch-size']);
        const r = await moveEnvironment(
          { prisma: database.prisma, log: (line) => process.stderr.write(`${line}\n`) },
          { environment: arg, cluster: Number(arg2), batchSize },
        );
        print(
          r,
          `environment ${r.environment} moved from cluster ${r.from} to ${r.to} (${r.rows} rows, ${r.caughtUpRows} caught up; ` +
            `writes refused for ${(r.writesBlockedMs / 1000).toFixed(1)} s, ${(r.totalMs / 1000).toFixed(1)} s in all)`,
        );
        return 0;
      }
      case 'user create': {
        const user = await caller.admin.user.create({
          environment: need('environment'),
          email: need('email'),
          name: values.name,
          rights: parseRights(need('rights')),
        });
        print(user, `user ${user.email} created with rights ${JSON.stringify(user.rights)}`);
        return 0;
      }
      case 'token create': {
        const token = await caller.admin.token.create({
          environment: need('environment'),
          user: need('user'),
          label: values.label,
        });
        // the secret is shown this once; only its hash is kept
        print(
          { key: token.key, secret: token.secret },
          `key:    ${token.key}\nsecret: ${token.secret}\n(the secret is not shown again)`,
        );
        return 0;
      }
      case 'token list': {
        const tokens = await caller.admin.token.list({ environment: need('environment') });
        print(
          tokens,
          tokens
            .map(
              (t) =>
                `${t.key}  ${t.user}  ${t.active ? 'active' : 'deleted'}  created ${t.createdAt}  last used ${t.lastUsedAt ?? 'never'}`,
            )
            .join('\n') || '(no tokens)',
        );
        return 0;
      }
      case 'token delete': {
        const token = await caller.admin.token.delete({ environment: need('environment'), key: need('key') });
        print(token, `token ${token.key} deactivated for good`);
        return 0;
      }
      case 'maintenance on': {
        const until = values.until === undefined ? undefined : new Date(values.until);
        if (until && Number.isNaN(until.getTime())) throw new UsageError('--until must be an ISO date-time');
        const w = await caller.admin.maintenance.on({
          environment: values.environment,
          message: values.message,
          endsAt: until,
        });
        print(
          w,
          `maintenance on for ${w.scope === '*' ? 'every environment' : w.scope}${w.endsAt ? ` until ${w.endsAt.toISOString()}` : ''}`,
        );
        return 0;
      }
      case 'maintenance off': {
        const r = await caller.admin.maintenance.off({ environment: values.environment });
        print(r, `maintenance ${r.ended ? 'ended' : 'was not on'} for ${r.scope === '*' ? 'every environment' : r.scope}`);
        return 0;
      }
      case 'maintenance list': {
        const ws = await caller.admin.maintenance.list();
        print(
          ws,
          ws
            .map(
              (w) =>
                `${w.scope}  since ${w.startedAt.toISOString()}  until ${w.endsAt?.toISOString() ?? '?'}  ${w.message ?? ''}`,
            )
            .join('\n') || '(no maintenance)',
        );
        return 0;
      }
      case 'password set': {
        // from standard input, never an argument (it would stay in the shell history and the process list)
        const password = (await readStdin()).replace(/\r?\n$/, '');
        const done = await caller.auth.password.set({ environment: need('environment'), email: need('email'), password });
        print(done, `password set for ${done.email}; sign in at /settings/api`);
        return 0;
      }
      case 'login-link create': {
        const environment = need('environment');
        const link = await caller.auth.loginLink.create({ environment, email: need('email') });
        const base = (values['base-url'] ?? `https://${environment}.localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, '');
        const url = `${base}/settings/api/link?token=${encodeURIComponent(link.secret)}`;
        print(
          { url, expiresAt: link.expiresAt.toISOString() },
          `${url}\n(one use, for ${link.email}, until ${link.expiresAt.toISOString()})`,
        );
        return 0;
      }
      default:
        throw new UsageError(`unknown command "${area} ${action}"`);
    }
  } finally {
    await database.close();
  }
}

class UsageError extends Error {}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n\n${USAGE}`);
      process.exit(2);
    }
    const domain = toDomainError(err);
    console.error(domain ? domain.message : err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
