import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import type { paths as V2Paths } from './generated/v2.js';
import type { paths as V3Paths } from './generated/v3.js';

export type { V2Paths, V3Paths };

/**
 * A typed client for integrators (issue 29, section 7): the paths, parameters and answers of both
 * versions come from the service's OpenAPI documents (src/generated, openapi-typescript), the calls
 * go through openapi-fetch. Beside the typed calls it pages (v2 limit/offset, v3 page/itemsPerPage,
 * the change feed's cursor) as async iterators, waits out 429 and 503 as `Retry-After` says, and
 * sends an `Idempotency-Key` with every write, the same on each retry of it, so a retried create
 * makes one record.
 */
export interface ClientOptions {
  /** the environment's base URL, e.g. https://demo.example.com */
  baseUrl: string;
  key: string;
  secret: string;
  /** a fetch of your own (a proxy, a certificate of your own); the global fetch otherwise */
  fetch?: (request: Request) => Promise<Response>;
  /** how many times a 429 or 503 is waited out and sent again (3) */
  maxRetries?: number;
  /** the longest wait for one retry, in seconds (60): a longer Retry-After answers the 429 or 503 as it is */
  maxRetryAfterSeconds?: number;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** seconds to wait from a Retry-After header: a number of seconds or an HTTP date */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The fetch the typed clients use: an Idempotency-Key on writes, and 429/503 waited out as Retry-After says. */
export function resilientFetch(opts: ClientOptions): (request: Request) => Promise<Response> {
  const send = opts.fetch ?? ((r: Request) => fetch(r));
  const maxRetries = opts.maxRetries ?? 3;
  const longest = opts.maxRetryAfterSeconds ?? 60;
  return async (request) => {
    let original = request;
    if (WRITES.has(request.method) && !request.headers.has('idempotency-key')) {
      const headers = new Headers(request.headers);
      headers.set('idempotency-key', randomUUID());
      original = new Request(request, { headers });
    }
    for (let attempt = 0; ; attempt++) {
      const response = await send(original.clone());
      if ((response.status !== 429 && response.status !== 503) || attempt >= maxRetries) return response;
      const wait = retryAfterSeconds(response.headers.get('retry-after'));
      if (wait === undefined || wait > longest) return response;
      await response.body?.cancel();
      await new Promise((r) => setTimeout(r, wait * 1000));
    }
  };
}

export interface BizOpsClient {
  v2: Client<V2Paths>;
  v3: Client<V3Paths>;
  /** every item of a v2 collection, page after page (limit/offset, 100 a page) */
  v2Items(path: V2ListPath, query?: Record<string, string | number>): AsyncGenerator<Record<string, unknown>>;
  /** every item of a v3 list, page after page (page/itemsPerPage) */
  v3Items(path: V3Path, query?: Record<string, string | number>): AsyncGenerator<Record<string, unknown>>;
  /** the change feed from a cursor (or its start) up to now: every create, update and delete in commit order */
  changes(after?: string, query?: Record<string, string>): AsyncGenerator<ChangeItem>;
}

type V2ListPath = { [P in keyof V2Paths]: V2Paths[P] extends { get: unknown } ? P : never }[keyof V2Paths] & string;
type V3Path = keyof V3Paths & string;

export interface ChangeItem {
  cursor: string;
  entityType: string;
  entityId: string;
  change: 'created' | 'updated' | 'deleted';
  occurredAt: string;
  data: Record<string, unknown>;
}

export function createBizOpsClient(opts: ClientOptions): BizOpsClient {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const fetcher = resilientFetch(opts);
  const v2 = createClient<V2Paths>({
    baseUrl: `${base}/api/v2`,
    headers: { 'authentication-key': opts.key, 'authentication-secret': opts.secret },
    fetch: fetcher,
  });
  const v3 = createClient<V3Paths>({
    baseUrl: `${base}/api/v3`,
    headers: { authorization: `Bearer ${opts.key}:${opts.secret}` },
    fetch: fetcher,
  });
  // the iterators read paths chosen at run time: the untyped form of the same clients
  const get = async (client: 'v2' | 'v3', path: string, query: Record<string, string | number>) => {
    const c = (client === 'v2' ? v2 : v3) as unknown as {
      GET(
        path: string,
        init: { params: { query: Record<string, string | number> } },
      ): Promise<{
        data?: unknown;
        error?: unknown;
        response: Response;
      }>;
    };
    const r = await c.GET(path, { params: { query } });
    if (r.error !== undefined || !r.response.ok) {
      throw new Error(`${client} GET ${path} answered ${r.response.status}: ${JSON.stringify(r.error)}`);
    }
    return r.data;
  };

  return {
    v2,
    v3,
    async *v2Items(path, query = {}) {
      // offset paging is what v2 offers; for a collection that changes meanwhile, follow the change feed
      for (let offset = 0; ; offset += 100) {
        const page = (await get('v2', path, { ...query, limit: 100, offset })) as { data: Record<string, unknown>[] };
        yield* page.data;
        if (page.data.length < 100) return;
      }
    },
    async *v3Items(path, query = {}) {
      for (let page = 1; ; page++) {
        const answer = (await get('v3', path, { ...query, page, itemsPerPage: 30 })) as {
          items: Record<string, unknown>[];
          totalPages: number;
        };
        yield* answer.items;
        if (page >= answer.totalPages) return;
      }
    },
    async *changes(after, query = {}) {
      let cursor = after;
      for (;;) {
        const page = (await get('v3', '/change.list', { ...query, ...(cursor ? { after: cursor } : {}), itemsPerPage: 100 })) as {
          items: ChangeItem[];
          nextCursor: string | null;
          hasMore: boolean;
        };
        yield* page.items;
        cursor = page.nextCursor ?? cursor;
        if (!page.hasMore) return;
      }
    },
  };
}
