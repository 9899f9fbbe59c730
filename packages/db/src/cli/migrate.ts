// `tsx packages/db/src/cli/migrate.ts deploy`        apply pending migrations to DATABASE_URL (or every cluster of DATABASE_URLS)
// `tsx packages/db/src/cli/migrate.ts create <name>` write a new migration for the schema folder
// Paths are resolved from this file (see src/migrations.ts), so any cwd works.
import { applyMigrations, createMigration, MigrationHistoryError } from '../migrations.js';
import { replicaName } from '../replicas.js';

const DEFAULT_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
const usage = 'usage: migrate.ts deploy | migrate.ts create <name>';

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'deploy': {
      // DATABASE_URLS: every cluster runs its own migrations, the first (global) one first
      const clusters = (process.env.DATABASE_URLS ?? '')
        .split(',')
        .map((u) => u.trim())
        .filter((u) => u !== '');
      const url = process.env.DATABASE_URL ?? DEFAULT_URL;
      if (clusters.length === 0 && !process.env.DATABASE_URL) console.log(`DATABASE_URL is not set; using ${DEFAULT_URL}`);
      const urls = clusters.length > 0 ? clusters : [url];
      for (const [i, each] of urls.entries()) {
        const { applied } = await applyMigrations(each, { log: (m) => console.log(m) });
        const where = urls.length > 1 ? `Cluster ${i} (${replicaName(each)}): ` : '';
        console.log(
          applied.length === 0
            ? `${where}Database is up to date: no migration to apply.`
            : `${where}Applied ${applied.length} migration(s).`,
        );
      }
      return 0;
    }
    case 'create': {
      const name = rest[0];
      if (!name || rest.length > 1) {
        console.error(`create needs exactly one name\n${usage}`);
        return 2;
      }
      const dir = await createMigration(name);
      if (dir) console.log(dir);
      return 0;
    }
    default:
      console.error(usage);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof MigrationHistoryError) {
      console.error(err.message);
    } else {
      console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    }
    process.exit(1);
  },
);
