import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDateTime } from '@bo/db';
import { isPrivateAddress } from '@bo/domain/webhooks/target-policy';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * Values out of range are a 400 in our own words, decided before the database; webhook
 * targets are judged by the address they really reach; a chunk retried with other bytes
 * at a confirmed pointer is a conflict.
 */
const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

describe('date-time parser: out-of-range parts are refused, whatever the offset', () => {
  const offset = fc.oneof(
    fc.constant(''),
    fc.constant('Z'),
    fc
      .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 14 }), fc.constantFrom(0, 30, 45))
      .map(([s, h, m]) => (h === 14 && m > 0 ? `${s}14:00` : `${s}${pad(h)}:${pad(m)}`)),
  );

  it('a valid calendar date-time parses to the instant it names', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 9998 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        offset,
        (y, m, d0, h, mi, zone) => {
          const d = Math.min(d0, daysIn(y, m));
          const text = `${pad(y, 4)}-${pad(m)}-${pad(d)}T${pad(h)}:${pad(mi)}:00${zone}`;
          const parsed = parseDateTime(text);
          expect(parsed, text).not.toBeNull();
          const iso = `${pad(y, 4)}-${pad(m)}-${pad(d)}T${pad(h)}:${pad(mi)}:00${zone || 'Z'}`;
          expect(parsed?.getTime()).toBe(new Date(iso).getTime());
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a day past the end of its month is refused with and without an offset (no 2024-02-30 → 2024-03-01)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 4 }),
        offset,
        (y, m, past, zone) => {
          const d = daysIn(y, m) + past;
          if (d > 99) return;
          expect(parseDateTime(`${pad(y, 4)}-${pad(m)}-${pad(d)}T10:00:00${zone}`)).toBeNull();
        },
      ),
      { numRuns: 500 },
    );
    expect(parseDateTime('2024-02-30T10:00:00+01:00')).toBeNull();
    expect(parseDateTime('2024-02-30 10:00:00')).toBeNull();
    expect(parseDateTime('2024-02-29T10:00:00+01:00')).not.toBeNull();
  });

  it('hours, minutes, seconds and offsets out of range are refused; instants past year 9999 in UTC are refused', () => {
    fc.assert(
      fc.property(fc.integer({ min: 24, max: 99 }), (h) => {
        expect(parseDateTime(`2024-01-01T${h}:00:00`)).toBeNull();
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 60, max: 99 }), (n) => {
        expect(parseDateTime(`2024-01-01T10:${n}:00`)).toBeNull();
        expect(parseDateTime(`2024-01-01T10:00:${n}`)).toBeNull();
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 15, max: 99 }), fc.constantFrom('+', '-'), (h, s) => {
        expect(parseDateTime(`2024-01-01T10:00:00${s}${h}:00`)).toBeNull();
      }),
    );
    expect(parseDateTime('9999-12-31T23:59:59-14:00')).toBeNull();
    expect(parseDateTime('9999-12-31T23:59:59Z')).not.toBeNull();
    expect(parseDateTime('0001-01-01T00:00:00+01:00')).toBeNull();
    expect(parseDateTime('0000-06-01')).toBeNull();
  });
});

describe('webhook targets: only global unicast, after unwrapping the IPv4 address inside', () => {
  const refused = [
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '192.0.2.1',
    '::',
    '::1',
    '::7f00:1', // IPv4-compatible 127.0.0.1
    '::ffff:127.0.0.1', // IPv4-mapped
    '::ffff:7f00:1',
    '::ffff:0:7f00:1', // SIIT (RFC 6145)
    '::ffff:0:a00:1',
    '2002:7f00:1::', // 6to4 of 127.0.0.1
    '2002:a9fe:a9fe::1', // 6to4 of 169.254.169.254
    '64:ff9b::7f00:1', // NAT64 of 127.0.0.1
    '64:ff9b::a00:1',
    '64:ff9b:1::1', // local-use NAT64
    '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo whose client is 127.0.0.1
    'fec0::1', // site-local
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '2001:db8::1',
    '100::1',
    'not-an-address',
  ];
  const allowed = [
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001::200e',
    '::ffff:8.8.8.8',
    '2002:808:808::1',
    '64:ff9b::808:808',
  ];
  it.each(refused)('%s is refused', (a) => expect(isPrivateAddress(a)).toBe(true));
  it.each(allowed)('%s is allowed', (a) => expect(isPrivateAddress(a)).toBe(false));

  it('any IPv4 address wrapped in an IPv6 form is judged like the IPv4 address itself', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }), (b) => {
        const v4 = b.join('.');
        const hi = ((b[0] ?? 0) << 8) | (b[1] ?? 0);
        const lo = ((b[2] ?? 0) << 8) | (b[3] ?? 0);
        const h = (n: number) => n.toString(16);
        const expected = isPrivateAddress(v4);
        for (const wrapped of [
          `::ffff:${v4}`,
          `::ffff:0:${h(hi)}:${h(lo)}`,
          `2002:${h(hi)}:${h(lo)}::1`,
          `64:ff9b::${h(hi)}:${h(lo)}`,
        ]) {
          expect(isPrivateAddress(wrapped), wrapped).toBe(expected);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('through HTTP', () => {
  let t: TestService;
  let acme: ApiClient;
  beforeAll(async () => {
    t = await startTestService({ webhooks: { allowPrivateTargets: false } });
    acme = await t.environment('ranges');
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('a project start_date past year 9999 in UTC is a 400 in our words; a filter on one too', async () => {
    const res = await acme.v2('POST', '/projects/project', { name: 'Far', start_date: '9999-12-31T23:59:59-14:00' });
    expect(res.status).toBe(400);
    const filter = await acme.v2('GET', '/projects/project?q[start_date][ge]=9999-12-31T23:59:59-14:00');
    expect(filter.status).toBe(400);
    const updated = await acme.v2('GET', '/crm/organization?q[updated_at][ge]=9999-12-31T23:59:59-14:00');
    expect(updated.status).toBe(400);
    for (const r of [res, filter, updated]) expect(r.text).not.toMatch(/displacement|out of range for type|SQLSTATE/);
    const feb = await acme.v2('GET', '/crm/organization?q[updated_at][ge]=2024-02-30T10:00:00%2B01:00');
    const febPlain = await acme.v2('GET', '/crm/organization?q[updated_at][ge]=2024-02-30%2010:00:00');
    expect(feb.status).toBe(400);
    expect(febPlain.status).toBe(400);
  });

  it('random date-times as filters: 400 exactly when the parser refuses them, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 10000 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: 25 }),
        fc.constantFrom('', 'Z', '+14:00', '-14:00', '+15:00', '-00:30'),
        async (y, m, d, h, zone) => {
          const text = `${pad(y, 4)}-${pad(m)}-${pad(d)}T${pad(h)}:00:00${zone}`;
          const res = await acme.v2('GET', `/crm/organization?q[updated_at][ge]=${encodeURIComponent(text)}`);
          expect(res.status, text).toBe(parseDateTime(text) ? 200 : 400);
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);

  it('numbers out of range are 400 before the database: custom-field group position, v3 page', async () => {
    const models = (await acme.v2('GET', '/customfields/model')).body as { data: { id: string; label: string }[] };
    const model = models.data.find((m) => m.label === 'Organization')?.id;
    // as the client wrote them: JSON text, so the huge number reaches the service as sent
    for (const position of ['99999999999999999999', '"99999999999999999999"', '2147483648', '-1', '1.5', '1e400']) {
      const body = `{"name": "G", "position": ${position}, "model": {"id": ${JSON.stringify(model)}}}`;
      const res = await acme.v2('POST', '/customfields/group', body, { headers: { 'content-type': 'application/json' } });
      expect(res.status, position).toBe(400);
    }
    expect((await acme.v2('POST', '/customfields/group', { name: 'G', position: 2147483647, model: { id: model } })).status).toBe(
      200,
    );
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 0n, max: 10n ** 30n }), async (n) => {
        const res = await acme.v3('GET', `/organization.list?page=${n}`);
        expect(res.status).toBe(n >= 1n && n <= BigInt(Math.floor(Number.MAX_SAFE_INTEGER / 30)) ? 200 : 400);
      }),
      { numRuns: 40 },
    );
    const huge = await acme.v3('GET', '/organization.list?page=1000000000000000000');
    expect(huge.status).toBe(400);
    expect(huge.body).toMatchObject({ status: 400, type: '/errors/400' });
    const integer = await acme.v2('GET', '/crm/organization?q[custom_fields.x][ge]=99999999999999999999999');
    expect(integer.status).toBeLessThan(500);
  }, 60_000);

  it('webhook targets in internal IPv6 forms are refused at create (422)', async () => {
    for (const host of [
      '[::7f00:1]',
      '[::ffff:0:7f00:1]',
      '[2002:7f00:1::]',
      '[fec0::1]',
      '[::ffff:127.0.0.1]',
      '[64:ff9b::a00:1]',
    ]) {
      const res = await acme.v3('POST', '/webhook.create', { url: `http://${host}:8080/hook`, events: ['*'] });
      expect(res.status, host).toBe(422);
    }
  });

  it('racing writers at one pointer: one wins, the others with other bytes get 409; the same bytes again stay 200', async () => {
    const start = await acme.v2('POST', '/upload/chunked', { file_name: 'race.bin', file_size: 1000 });
    expect(start.status).toBe(200);
    const id = (start.body as { data: { chunked_upload_id: string } }).data.chunked_upload_id;
    const chunks = Array.from({ length: 10 }, (_, i) => Buffer.alloc(100, i + 1));
    const put = (bytes: Buffer, pointer: number) =>
      acme.v2('PUT', `/upload/chunked/${encodeURIComponent(id)}`, { chunk: bytes.toString('base64'), pointer });
    const answers = await Promise.all(chunks.map((c) => put(c, 0)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    const winner = chunks[answers.findIndex((a) => a.status === 200)] as Buffer;
    // the winner's retry (its answer lost): idempotent
    const again = await put(winner, 0);
    expect(again.status).toBe(200);
    expect((again.body as { data: { pointer: number } }).data.pointer).toBe(100);
    // anyone else's bytes at the confirmed pointer: 409, and the upload is unchanged
    const other = await put(Buffer.alloc(100, 99), 0);
    expect(other.status).toBe(409);
    const next = await put(Buffer.alloc(100, 42), 100);
    expect((next.body as { data: { pointer: number } }).data.pointer).toBe(200);
  });
});
