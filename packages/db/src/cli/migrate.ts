// `tsx packages/db/src/cli/migrate.ts deploy`        apply pending migrations to DATABASE_URL
// `tsx packages/db/src/cli/migrate.ts create <name>` write a new migration for the schema folder
// Paths are resolved from this file (see src/migrations.ts), so any cwd works.
import { applyMigrations, createMigration, MigrationHistoryError } from '../migrations.js';

const DEFAULT_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
const usage = 'usage: migrate.ts deploy | migrate.ts create <name>';

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'deploy': {
      const url = process.env.DATABASE_URL ?? DEFAULT_URL;
      if (!process.env.DATABASE_URL) console.log(`DATABASE_URL is not set; using ${DEFAULT_URL}`);
      const { applied } = await applyMigrations(url, { log: (m) => console.log(m) });
      console.log(
        applied.length === 0 ? 'Database is up to date: no migration to apply.' : `Applied ${applied.length} migration(s).`,
      );
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
