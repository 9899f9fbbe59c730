import { defineConfig } from 'prisma/config';

// The CLI is only used for `generate` here (see src/cli/generate.ts); migrations
// run through the WebAssembly schema engine in src/migrations.ts.
export default defineConfig({
  schema: 'prisma/schema',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' },
});
