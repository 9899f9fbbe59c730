import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

let t: TestService;
let acme: ApiClient;
let existingId: string;
let foreignId: string;

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
  const other = await t.environment('other');
  existingId = ((await acme.v2('POST', '/crm/organization', { name: 'Existing' })).body as { data: { id: string } }).data.id;
  foreignId = ((await other.v2('POST', '/crm/organization', { name: 'Foreign' })).body as { data: { id: string } }).data.id;
});
afterAll(() => t?.stop());

async function snapshot(): Promise<string> {
  const rows = await t.db.query(
    `SELECT (SELECT json_agg(o ORDER BY id) FROM organization o) AS orgs, (SELECT count(*) FROM event) AS events`,
  );
  return JSON.stringify(rows);
}

interface Case {
  name: string;
  method: string;
  path: () => string;
  body?: unknown;
  headers?: Record<string, string>;
  status: number;
  /** a fragment the error message must contain */
  mentions?: string;
}

const cases: Case[] = [
  {
    name: 'malformed JSON',
    method: 'POST',
    path: () => '/crm/organization',
    body: '{"name": ',
    headers: { 'content-type': 'application/json' },
    status: 400,
    mentions: 'JSON',
  },
  {
    name: 'a body that is not JSON',
    method: 'POST',
    path: () => '/crm/organization',
    body: 'name=Acme',
    headers: { 'content-type': 'text/plain' },
    status: 415,
    mentions: 'application/json',
  },
  {
    name: 'a POST without Content-Type',
    method: 'POST',
    path: () => '/crm/organization',
    body: '{"name":"No Type"}',
    headers: { 'content-type': '' },
    status: 415,
  },
  {
    name: 'a PUT without Content-Type',
    method: 'PUT',
    path: () => `/crm/organization/${existingId}`,
    body: '{"name":"No Type"}',
    headers: { 'content-type': '' },
    status: 415,
  },
  {
    name: 'a JSON array instead of an object',
    method: 'POST',
    path: () => '/crm/organization',
    body: [{ name: 'x' }],
    status: 400,
  },
  {
    name: 'a number where a string belongs',
    method: 'POST',
    path: () => '/crm/organization',
    body: { name: 123 },
    status: 400,
    mentions: 'name',
  },
  {
    name: 'a string where a boolean belongs',
    method: 'POST',
    path: () => '/crm/organization',
    body: { name: 'X', is_active: 'yes' },
    status: 400,
    mentions: 'is_active',
  },
  {
    name: 'a missing required name',
    method: 'POST',
    path: () => '/crm/organization',
    body: { email: 'a@b.c' },
    status: 400,
    mentions: 'name',
  },
  { name: 'a blank name', method: 'POST', path: () => '/crm/organization', body: { name: '   ' }, status: 400, mentions: 'name' },
  {
    name: 'a blank name on PUT',
    method: 'PUT',
    path: () => `/crm/organization/${existingId}`,
    body: { name: '' },
    status: 400,
    mentions: 'name',
  },
  {
    name: 'an unknown id on PUT',
    method: 'PUT',
    path: () => '/crm/organization/organization:doesnotexist',
    body: { name: 'X' },
    status: 404,
  },
  { name: 'an unknown id on DELETE', method: 'DELETE', path: () => '/crm/organization/organization:doesnotexist', status: 404 },
  { name: 'an unknown id on GET', method: 'GET', path: () => '/crm/organization/organization:doesnotexist', status: 404 },
  {
    name: "another environment's id on PUT",
    method: 'PUT',
    path: () => `/crm/organization/${foreignId}`,
    body: { name: 'X' },
    status: 404,
  },
  {
    name: 'a reference to a missing relation type',
    method: 'POST',
    path: () => '/crm/organization',
    body: { name: 'X', relation_type: { id: 'relationtype:nope' } },
    status: 400,
    mentions: 'relation_type.id',
  },
  {
    name: 'a body over 1 MB',
    method: 'POST',
    path: () => '/crm/organization',
    body: { name: 'Big', note: 'x'.repeat(1_100_000) },
    status: 413,
  },
  {
    name: 'an unknown filter path',
    method: 'GET',
    path: () => '/crm/organization?q[colour]=red',
    status: 400,
    mentions: 'q[colour]',
  },
  { name: 'an unknown operator', method: 'GET', path: () => '/crm/organization?q[name][like]=x', status: 400, mentions: 'like' },
  {
    name: 'an unparsable date',
    method: 'GET',
    path: () => '/crm/organization?q[updated_at][ge]=yesterday',
    status: 400,
    mentions: 'q[updated_at]',
  },
  {
    name: 'an impossible date',
    method: 'GET',
    path: () => '/crm/organization?q[updated_at][ge]=2024-02-31',
    status: 400,
    mentions: 'q[updated_at]',
  },
  { name: 'a negative limit', method: 'GET', path: () => '/crm/organization?limit=-1', status: 400, mentions: 'limit' },
  { name: 'a non-integer limit', method: 'GET', path: () => '/crm/organization?limit=ten', status: 400, mentions: 'limit' },
  { name: 'a non-integer offset', method: 'GET', path: () => '/crm/organization?offset=1.5', status: 400, mentions: 'offset' },
  { name: 'an unknown sort path', method: 'GET', path: () => '/crm/organization?sort=colour', status: 400, mentions: 'sort' },
  {
    name: 'an unknown metadata value',
    method: 'GET',
    path: () => '/crm/organization?metadata=total',
    status: 400,
    mentions: 'metadata',
  },
  {
    name: 'a wildcard on a boolean',
    method: 'GET',
    path: () => '/crm/organization?q[is_active]=tr*',
    status: 400,
    mentions: 'is_active',
  },
  {
    name: 'a non-boolean for a boolean',
    method: 'GET',
    path: () => '/crm/organization?q[is_active]=maybe',
    status: 400,
    mentions: 'is_active',
  },
];

describe('v2 bad input: a clear 4xx in the envelope, and nothing changes', () => {
  it.each(cases)('$name → $status', async (c) => {
    const before = await snapshot();
    const res = await acme.v2(c.method, c.path(), c.body, { headers: c.headers });
    expect(res.status, res.text).toBe(c.status);
    expect(res.body).toEqual({ data: null, errors: [expect.any(String)], debug: null });
    if (c.mentions) expect((res.body as { errors: string[] }).errors.join(' ')).toContain(c.mentions);
    expect(await snapshot()).toBe(before);
  });
});

describe('v3 bad input: problem details', () => {
  it.each([
    { name: 'itemsPerPage over 30', path: '/organization.list?itemsPerPage=100', status: 400 },
    { name: 'page below 1', path: '/organization.list?page=0', status: 400 },
    { name: 'a non-integer page', path: '/organization.list?page=first', status: 400 },
    { name: 'an unknown filter', path: '/organization.list?city=Utrecht', status: 400 },
    { name: 'an unknown endpoint', path: '/organization.explode', status: 404 },
    { name: 'a missing entity', path: '/organization.get/organization:nope', status: 404 },
  ])('$name → $status', async (c) => {
    const res = await acme.v3('GET', c.path);
    expect(res.status).toBe(c.status);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).toMatchObject({
      type: `/errors/${c.status}`,
      title: expect.any(String),
      status: c.status,
      detail: expect.any(String),
    });
  });

  it('answers application/json instead when the client accepts only that', async () => {
    const res = await acme.v3('GET', '/organization.list?page=0', undefined, { headers: { accept: 'application/json' } });
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.body).toMatchObject({ status: 400 });
  });

  it('a query called with POST answers 405', async () => {
    const res = await acme.v3('POST', '/organization.list', {});
    expect(res.status).toBe(405);
  });
});
