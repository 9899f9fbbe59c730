import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.js';

export interface ClientOptions {
  /** connections in the pool; 1 for the embedded database (PGlite is one session) */
  max?: number;
  /** called with the SQL of every query the client sends (tests count queries with it) */
  onQuery?: (sql: string) => void;
}

export function createPrismaClient(connectionString: string, opts: ClientOptions = {}): PrismaClient {
  const adapter = new PrismaPg({ connectionString, max: opts.max ?? 10 });
  if (!opts.onQuery) return new PrismaClient({ adapter });
  const onQuery = opts.onQuery;
  const client = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
  client.$on('query', (e) => onQuery(e.query));
  return client as unknown as PrismaClient;
}

export type { PrismaClient };
