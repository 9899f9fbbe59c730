import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { applyMigrations } from '@bo/db';
import { adminUrl, databaseUrl } from './pg-urls.js';

/**
 * Migrates one template database per run; each test file then copies it
 * (CREATE DATABASE … TEMPLATE), which is far faster than migrating each time.
 */
export default async function setup(project: TestProject) {
  const template = `bo_tpl_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${template}"`);
  await admin.end();
  await applyMigrations(databaseUrl(template));
  project.provide('templateDatabase', template);
  return async () => {
    const c = new pg.Client({ connectionString: adminUrl() });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    await c.end();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}
