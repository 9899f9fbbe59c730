import pg from 'pg';

/**
 * The peer's own database, as an operator of Directus would set it up for this collection: only
 * the organizations and their addresses (no other table for its schema reader to walk), the
 * same rows as the service's environment (same ids, names and timestamps, copied), and the
 * indexes its queries can use: `lower(name) text_pattern_ops` for the case-insensitive prefix (with
 * the name and the id included, as the service's: its count and a sorted page of ids are then read off the index alone),
 * `name` for the sort by name, `updated_at` for change tracking, `(created_at, id)` for the first
 * page in creation order, and the address's foreign key.
 */
export const PEER_SCHEMA = `
  CREATE TABLE organization (
    id text PRIMARY KEY,
    name text NOT NULL,
    email text,
    relation_number text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  );
  CREATE TABLE organization_address (
    id text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organization(id) ON DELETE CASCADE,
    kind text NOT NULL,
    line_1 text,
    postal_code text,
    locality text,
    country_code text
  );
  CREATE INDEX organization_lower_name_prefix ON organization (lower(name) text_pattern_ops) INCLUDE (name, id);
  CREATE INDEX organization_name ON organization (name);
  CREATE INDEX organization_updated_at ON organization (updated_at);
  CREATE INDEX organization_created_at_id ON organization (created_at, id);
  CREATE INDEX organization_address_organization_id ON organization_address (organization_id);`;

export interface PeerDatabase {
  url: string;
  drop(): Promise<void>;
}

/** Creates `<service database>_peer` beside the service's database and copies one environment's organizations into it. */
export async function createPeerDatabase(serviceUrl: string, source: pg.Pool, environmentId: string): Promise<PeerDatabase> {
  const u = new URL(serviceUrl);
  const name = `${decodeURIComponent(u.pathname.slice(1))}_peer`;
  const adminUrl = new URL(serviceUrl);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  u.pathname = `/${name}`;
  const url = u.toString();

  const target = new pg.Client({ connectionString: url });
  await target.connect();
  try {
    await target.query(PEER_SCHEMA);
    const orgs = await source.query<{
      id: string;
      name: string;
      email: string | null;
      relation_number: string | null;
      created_at: Date;
      updated_at: Date;
    }>('SELECT id, name, email, relation_number, created_at, updated_at FROM organization WHERE environment_id = $1', [
      environmentId,
    ]);
    await target.query(
      `INSERT INTO organization (id, name, email, relation_number, created_at, updated_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::timestamptz[])`,
      [
        orgs.rows.map((r) => r.id),
        orgs.rows.map((r) => r.name),
        orgs.rows.map((r) => r.email),
        orgs.rows.map((r) => r.relation_number),
        orgs.rows.map((r) => r.created_at),
        orgs.rows.map((r) => r.updated_at),
      ],
    );
    const addresses = await source.query<{
      id: string;
      organization_id: string;
      kind: string;
      line_1: string | null;
      postal_code: string | null;
      locality: string | null;
      country_code: string | null;
    }>(
      `SELECT id, organization_id, kind, line_1, postal_code, locality, country_code
         FROM organization_address WHERE environment_id = $1`,
      [environmentId],
    );
    await target.query(
      `INSERT INTO organization_address (id, organization_id, kind, line_1, postal_code, locality, country_code)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])`,
      [
        addresses.rows.map((r) => r.id),
        addresses.rows.map((r) => r.organization_id),
        addresses.rows.map((r) => r.kind),
        addresses.rows.map((r) => r.line_1),
        addresses.rows.map((r) => r.postal_code),
        addresses.rows.map((r) => r.locality),
        addresses.rows.map((r) => r.country_code),
      ],
    );
    // vacuumed as well as analyzed, as the service's copy: an index-only scan needs the visibility map
    for (const table of ['organization', 'organization_address']) await target.query(`VACUUM ANALYZE ${table}`);
  } finally {
    await target.end();
  }

  return {
    url,
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}
