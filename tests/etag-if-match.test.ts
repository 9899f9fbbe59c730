import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * Issue 29, section 3: lost-update protection. Single reads send an ETag (the record's version,
 * its updated_at); If-None-Match answers 304; a write with If-Match checks it under the record's
 * lock, so of two clients that read one version and both write, exactly one succeeds and the
 * other gets 412 with nothing changed.
 */

let t: TestService;
let acme: ApiClient;

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
});
afterAll(async () => {
  await t?.stop();
});

async function organization(name: string): Promise<{ id: string; etag: string }> {
  const res = await acme.v2('POST', '/crm/organization', { name });
  expect(res.status, res.text).toBe(200);
  const id = (res.body as { data: { id: string } }).data.id;
  const got = await acme.v2('GET', `/crm/organization/${encodeURIComponent(id)}`);
  return { id, etag: String(got.headers.etag) };
}

const nameOf = async (id: string) =>
  ((await acme.v2('GET', `/crm/organization/${encodeURIComponent(id)}`)).body as { data: { name: string } }).data.name;

describe('ETag and If-None-Match', () => {
  it('a v2 single read sends an ETag from the record’s version; If-None-Match with it answers 304 with no body, and a changed record a new tag', async () => {
    const { id, etag } = await organization('Tagged BV');
    expect(etag).toMatch(/^"[0-9a-z]+"$/);
    const again = await acme.v2('GET', `/crm/organization/${encodeURIComponent(id)}`, undefined, {
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const weak = await acme.v2('GET', `/crm/organization/${encodeURIComponent(id)}`, undefined, {
      headers: { 'if-none-match': `"other", W/${etag}` },
    });
    expect(weak.status).toBe(304);
    await new Promise((r) => setTimeout(r, 5));
    expect((await acme.v2('PUT', `/crm/organization/${encodeURIComponent(id)}`, { name: 'Tagged Again BV' })).status).toBe(200);
    const changed = await acme.v2('GET', `/crm/organization/${encodeURIComponent(id)}`, undefined, {
      headers: { 'if-none-match': etag },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('a v3 get sends the same ETag as v2 for the same record, and honours If-None-Match', async () => {
    const created = await acme.v3('POST', '/employee.create', { name: 'Etta Tag' });
    expect(created.status, created.text).toBe(201);
    const id = (created.body as { id: string }).id;
    const v3 = await acme.v3('GET', `/employee.get/${encodeURIComponent(id)}`);
    const v2 = await acme.v2('GET', `/hrm/employee/${encodeURIComponent(id)}`);
    expect(v3.headers.etag).toMatch(/^"[0-9a-z]+"$/);
    expect(v3.headers.etag).toBe(v2.headers.etag);
    const again = await acme.v3('GET', `/employee.get/${encodeURIComponent(id)}`, undefined, {
      headers: { 'if-none-match': String(v3.headers.etag) },
    });
    expect(again.status).toBe(304);
  });
});

describe('If-Match', () => {
  it('v2 PUT with a stale tag answers 412 and changes nothing; with the current tag, or *, it writes', async () => {
    const { id, etag } = await organization('Guarded BV');
    await new Promise((r) => setTimeout(r, 5));
    const current = await acme.v2(
      'PUT',
      `/crm/organization/${encodeURIComponent(id)}`,
      { name: 'Guarded Once BV' },
      {
        headers: { 'if-match': etag },
      },
    );
    expect(current.status, current.text).toBe(200);
    const stale = await acme.v2(
      'PUT',
      `/crm/organization/${encodeURIComponent(id)}`,
      { name: 'Lost Update BV' },
      {
        headers: { 'if-match': etag },
      },
    );
    expect(stale.status).toBe(412);
    expect((stale.body as { errors: string[] }).errors.join(' ')).toMatch(/If-Match/);
    expect(await nameOf(id)).toBe('Guarded Once BV');
    const any = await acme.v2(
      'PUT',
      `/crm/organization/${encodeURIComponent(id)}`,
      { name: 'Guarded Twice BV' },
      {
        headers: { 'if-match': '*' },
      },
    );
    expect(any.status).toBe(200);
  });

  it('v2 DELETE with a stale tag answers 412 and the record stays', async () => {
    const { id } = await organization('Kept BV');
    const gone = await acme.v2('DELETE', `/crm/organization/${encodeURIComponent(id)}`, undefined, {
      headers: { 'if-match': '"0"' },
    });
    expect(gone.status).toBe(412);
    expect((await acme.v2('GET', `/crm/organization/${encodeURIComponent(id)}`)).status).toBe(200);
  });

  it('two clients read one version and both write with its tag: exactly one succeeds, the other gets 412 (v2, ten rounds)', async () => {
    for (let round = 0; round < 10; round++) {
      const { id, etag } = await organization(`Contended ${round} BV`);
      await new Promise((r) => setTimeout(r, 2));
      const [a, b] = await Promise.all(
        ['A', 'B'].map((who) =>
          acme.v2(
            'PUT',
            `/crm/organization/${encodeURIComponent(id)}`,
            { name: `Written by ${who}` },
            {
              headers: { 'if-match': etag },
            },
          ),
        ),
      );
      const statuses = [a?.status, b?.status].sort();
      expect(statuses).toEqual([200, 412]);
      const winner = a?.status === 200 ? 'A' : 'B';
      expect(await nameOf(id)).toBe(`Written by ${winner}`);
    }
  });

  it('a v3 edit command with a stale tag answers 412 problem details and changes nothing; with the current tag it writes', async () => {
    const created = await acme.v3('POST', '/employee.create', { name: 'Ed Itor' });
    const id = (created.body as { id: string }).id;
    const etag = String((await acme.v3('GET', `/employee.get/${encodeURIComponent(id)}`)).headers.etag);
    await new Promise((r) => setTimeout(r, 5));
    const first = await acme.v3(
      'POST',
      `/employee.edit/${encodeURIComponent(id)}`,
      { function: 'Editor' },
      {
        headers: { 'if-match': etag },
      },
    );
    expect(first.status, first.text).toBe(200);
    const stale = await acme.v3(
      'POST',
      `/employee.edit/${encodeURIComponent(id)}`,
      { function: 'Overwriter' },
      {
        headers: { 'if-match': etag },
      },
    );
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ status: 412 });
    const now = await acme.v3('GET', `/employee.get/${encodeURIComponent(id)}`);
    expect((now.body as { function: string }).function).toBe('Editor');
  });

  it('If-Match on a write that changes no existing record (a create) answers 412, and nothing is made', async () => {
    const before = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM organization'))[0]?.n;
    const res = await acme.v2('POST', '/crm/organization', { name: 'Never Made BV' }, { headers: { 'if-match': '"abc"' } });
    expect(res.status).toBe(412);
    const after = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM organization'))[0]?.n;
    expect(after).toBe(before);
  });
});
