import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { databaseFingerprint } from './support/snapshot.js';

/**
 * Issue 28, section 3: the two references an attacker stored from another environment. Each is
 * now a checked reference: another environment's id answers 400 naming the field, nothing stored.
 */
let t: TestService;
let acme: ApiClient;
let other: ApiClient;

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
  other = await t.environment('other');
});
afterAll(() => t?.stop());

async function idIn(client: ApiClient, path: string): Promise<string> {
  const res = await client.v2('GET', `${path}?limit=1`);
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: { id: string }[] }).data[0]?.id as string;
}

describe('references from another environment', () => {
  it('POST invoices/invoice with another environment’s my_organization_profile_id answers 400 naming it, nothing stored', async () => {
    const foreignProfile = await idIn(other, '/crm/myorganizationprofile');
    const ownProfile = await idIn(acme, '/crm/myorganizationprofile');
    expect(foreignProfile).toBeTruthy();
    const debtor = (await acme.v2('POST', '/crm/organization', { name: 'Debtor BV' })).body as { data: { id: string } };
    const before = await databaseFingerprint(t.db);
    const res = await acme.v2('POST', '/invoices/invoice', {
      organization_id: debtor.data.id,
      my_organization_profile_id: foreignProfile,
    });
    expect(res.status, res.text).toBe(400);
    expect(res.text).toContain('my_organization_profile_id');
    expect(await databaseFingerprint(t.db)).toEqual(before);
    const own = await acme.v2('POST', '/invoices/invoice', {
      organization_id: debtor.data.id,
      my_organization_profile_id: ownProfile,
    });
    expect(own.status, own.text).toBe(200);
  });

  it('POST sales/service with another environment’s vat_class id answers 400 naming it, nothing stored', async () => {
    const foreignVat = await idIn(other, '/invoices/vatclass');
    expect(foreignVat).toBeTruthy();
    const sale = await acme.v2('POST', '/sales/sales', {
      subject: 'Vat Sale',
      organization_id: (
        await acme.v2('POST', '/crm/organization', { name: 'Buyer BV' }).then((r) => r.body as { data: { id: string } })
      ).data.id,
    });
    expect(sale.status, sale.text).toBe(200);
    const saleId = (sale.body as { data: { id: string } }).data.id;
    const before = await databaseFingerprint(t.db);
    for (const body of [
      { sales_id: saleId, name: 'Foreign Vat', invoice_method: 'FixedFee', vat_class: { id: foreignVat } },
      { sales_id: saleId, name: 'Foreign Vat', invoice_method: 'FixedFee', vat_class_id: foreignVat },
    ]) {
      const res = await acme.v2('POST', '/sales/service', body);
      expect(res.status, res.text).toBe(400);
      expect(res.text).toContain('vat_class');
    }
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });
});
