import { expect } from 'vitest';
import type { ApiClient, TestService } from './service.js';

export type Envelope<T = Record<string, unknown>> = {
  data: T;
  errors: string[] | null;
  debug: unknown;
  metadata?: Record<string, number>;
};

/** POST a v2 resource and answer its new id (the call must succeed). */
export async function post(client: ApiClient, path: string, body: Record<string, unknown>): Promise<string> {
  const res = await client.v2('POST', path, body);
  expect(res.status, `${path}: ${res.text}`).toBe(200);
  return (res.body as Envelope<{ id: string }>).data.id;
}

/** GET a v2 collection and answer its data (the call must succeed). */
export async function list<T = Record<string, unknown>>(client: ApiClient, pathAndQuery: string): Promise<T[]> {
  const res = await client.v2('GET', pathAndQuery);
  expect(res.status, `${pathAndQuery}: ${res.text}`).toBe(200);
  return (res.body as Envelope<T[]>).data;
}

export async function names(client: ApiClient, pathAndQuery: string, key = 'name'): Promise<string[]> {
  const rows = await list<Record<string, string>>(client, pathAndQuery);
  return rows.map((r) => r[key] as string).sort();
}

/** A reference row of an environment, looked up with SQL (ids are per environment). */
export async function referenceId(t: TestService, environment: string, table: string, where: string): Promise<string> {
  const rows = await t.db.query<{ id: string }>(
    `SELECT r.id FROM "${table}" r JOIN environment e ON e.id = r.environment_id WHERE e.name = $1 AND ${where} LIMIT 1`,
    [environment],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error(`no ${table} where ${where} in ${environment}`);
  return id;
}
