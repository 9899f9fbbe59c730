import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnyProcedure, TRPCError } from '@trpc/server';
import { appRouter, type createCaller, declaredRightOf } from '@bo/domain';
import { unknownInputKeys } from '../packages/domain/src/shared/unknown-input-keys.js';
import { type ApiClient, callerOf, startTestService, type TestService } from './support/service.js';
import { send } from './support/http.js';
import { databaseFingerprint } from './support/snapshot.js';

/**
 * Issue 28, section 6: tRPC inputs are strict. Every procedure of the router whose input is an
 * object refuses a key it does not know, at any depth: BAD_REQUEST naming the key, nothing done
 * (zod's plain objects used to drop it, and `crm.organization.list` given `{query, view}`
 * answered the whole list). v2 keeps its documented tolerance: it drops such keys.
 */
let t: TestService;
let api: ApiClient;
let user: ReturnType<typeof createCaller>;

beforeAll(async () => {
  t = await startTestService();
  api = await t.environment('strict');
  user = await callerOf(t, 'strict', api);
});
afterAll(() => t?.stop());

const PROBE = 'noSuchKeyAnywhere';

/** The procedure at a dotted path of a caller (`crm.organization.list`). */
function callAt(caller: ReturnType<typeof createCaller>, path: string, input: unknown): Promise<unknown> {
  let node: unknown = caller;
  for (const part of path.split('.')) node = (node as Record<string, unknown>)[part];
  return (node as (i: unknown) => Promise<unknown>)(input);
}

async function refusal(call: Promise<unknown>): Promise<TRPCError | null> {
  try {
    await call;
    return null;
  } catch (err) {
    if (err instanceof TRPCError) return err;
    throw err;
  }
}

/** The procedures whose input is an object (a probe key is unknown to it), with their declared input. */
function objectInputProcedures(): [string, AnyProcedure][] {
  const procedures = appRouter._def.procedures as unknown as Record<string, AnyProcedure>;
  return Object.keys(procedures)
    .sort()
    .flatMap((path): [string, AnyProcedure][] => {
      const procedure = procedures[path];
      const input = (procedure?._def as { inputs?: unknown[] } | undefined)?.inputs?.[0];
      if (!procedure || !input) return [];
      return unknownInputKeys(input as never, { [PROBE]: 1 }).includes(PROBE) ? [[path, procedure]] : [];
    });
}

describe('tRPC inputs are strict', () => {
  it('crm.organization.list given {query, view} is refused naming both keys, not answered with the whole list', async () => {
    const err = await refusal(user.crm.organization.list({ query: 'acme', view: 'compact' } as never));
    expect(err?.code).toBe('BAD_REQUEST');
    expect(err?.message).toContain('query');
    expect(err?.message).toContain('view');
  });

  it('an unknown key nested in an input (a condition of a list filter) is refused naming its path', async () => {
    const err = await refusal(user.crm.organization.list({ orderBy: [{ path: 'name', dir: 'asc', nulls: 'last' }] } as never));
    expect(err?.code).toBe('BAD_REQUEST');
    expect(err?.message).toContain('orderBy.0.nulls');
  });

  it('every procedure of the router with an object input refuses an unknown key, naming it, and changes nothing', async () => {
    const checked = objectInputProcedures();
    // nearly every procedure takes an object: the walk found them
    expect(checked.length).toBeGreaterThan(300);
    const before = await databaseFingerprint(t.db);
    const accepted: string[] = [];
    for (const [path, procedure] of checked) {
      const caller = declaredRightOf(procedure)?.kind === 'system' ? t.system : user;
      const err = await refusal(callAt(caller, path, { [PROBE]: 1 }));
      if (err?.code !== 'BAD_REQUEST' || !err.message.includes(PROBE))
        accepted.push(`${path}: ${err?.code ?? 'answered'} ${err?.message ?? ''}`);
    }
    expect(accepted).toEqual([]);
    const { api_token: _lastUse, ...after } = await databaseFingerprint(t.db);
    const { api_token: _lastUseBefore, ...was } = before;
    expect(after).toEqual(was);
  });

  it('/trpc answers an unknown key with a 400 in tRPC’s shape naming it', async () => {
    const input = encodeURIComponent(JSON.stringify({ query: 'acme' }));
    const answer = await send(t.service.port, 'GET', `/trpc/crm.organization.list?input=${input}`, {
      host: api.host,
      headers: { authorization: `Bearer ${api.token?.key}:${api.token?.secret}` },
    });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.text).toContain('BAD_REQUEST');
    expect(answer.text).toContain('query');
  });

  it('v2 keeps its tolerance: a key it does not know is dropped (the write is stored, the key ignored)', async () => {
    const res = await api.v2('POST', '/crm/organization', { name: 'Tolerant BV', no_such_field: 'x' });
    expect(res.status, res.text).toBe(200);
  });

  it('v3 refuses an unknown property with 400, as before', async () => {
    const res = await api.v3('POST', '/webhook.create', {
      url: 'https://example.com/hook',
      events: ['organization.created'],
      noSuchField: 'x',
    });
    expect(res.status, res.text).toBe(400);
    expect(res.text).toContain('noSuchField');
  });
});
