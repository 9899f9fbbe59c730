import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookable, hoursBody, v2Post } from './support/hours.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * Issue 26: the rule of rights through relations holds at every depth. Without the CRM read
 * right, the customer inside the project inside an hour registration shows as {id, name} only,
 * as a customer directly on a project does.
 */
let t: TestService;
let acme: ApiClient;

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
});
afterAll(() => t?.stop());

describe('rights through relations, at depth', () => {
  it('a token with hours and projects but no CRM right sees the customer nested in an hour’s project as its id and name only; an all-rights token sees it whole', async () => {
    const b = await bookable(acme, 'Depth');
    const customer = await v2Post(acme, '/crm/organization', { name: 'Nested Customer BV', relation_number: 'N-1' });
    expect((await acme.v2('PUT', `/projects/project/${b.project}`, { organization_id: customer })).status).toBe(200);
    const hours = await v2Post(acme, '/hours/hours', hoursBody(b));

    const whole = (await acme.v2('GET', `/hours/hours/${hours}`)).body as {
      data: { project: { organization: Record<string, unknown> } };
    };
    expect(whole.data.project.organization).toMatchObject({ id: customer, name: 'Nested Customer BV', relation_number: 'N-1' });

    const noCrm = await t.user('acme', 'depth-no-crm@acme.test', { hours: 'read', projects: 'read', hrm: 'read' });
    const read = await noCrm.v2('GET', `/hours/hours/${hours}`);
    expect(read.status, read.text).toBe(200);
    const organization = (read.body as { data: { project: { organization: Record<string, unknown> } } }).data.project
      .organization;
    // the v2 shape keeps its keys (GetOrganizationSimple); what the CRM right guards is null
    expect(organization).toEqual({ id: customer, name: 'Nested Customer BV', relation_number: null });
    expect(read.text).not.toContain('N-1');

    const list = await noCrm.v2('GET', `/hours/hours?q[id]=${encodeURIComponent(hours)}`);
    expect(list.text).not.toContain('N-1');
  });
});
