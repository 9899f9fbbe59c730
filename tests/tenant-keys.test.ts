// Data layout (issue 30, section 2): every tenant table's primary key and unique constraints include
// environment_id, so that a sharding extension of PostgreSQL that distributes by that column could
// distribute the schema. Checked over the Prisma schema (packages/db/prisma/schema/*.prisma).
//
// Today most tables do not: their key is an opaque id alone. Changing that is a migration of the
// whole schema (composite keys, and every foreign key with them), not a small or safe step, so the
// tables that break the rule are listed below, each with its reason. The test fails when a table
// breaks the rule and is not listed (a new table must include environment_id), and when a listed one
// no longer breaks it (take it off the list).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SCHEMA_DIR = path.resolve(__dirname, '../packages/db/prisma/schema');

interface Model {
  name: string;
  fields: Map<string, string>;
  /** the model's own attributes (@@id, @@unique, …), one per line */
  attributes: string[];
}

function models(): Model[] {
  const found: Model[] = [];
  for (const file of readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.prisma'))) {
    const text = readFileSync(path.join(SCHEMA_DIR, file), 'utf8');
    for (const m of text.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)) {
      const fields = new Map<string, string>();
      const attributes: string[] = [];
      for (const raw of (m[2] ?? '').split('\n')) {
        const line = raw.replace(/\/\/.*$/, '').trim();
        if (line.startsWith('@@')) attributes.push(line);
        else {
          const field = /^(\w+)\s+\S+(.*)$/.exec(line);
          if (field?.[1]) fields.set(field[1], field[2] ?? '');
        }
      }
      found.push({ name: m[1] ?? '', fields, attributes });
    }
  }
  return found;
}

/** each primary key and unique constraint of a tenant model (one with environmentId) that lacks environmentId */
function keysWithoutEnvironment(all: Model[]): string[] {
  const broken: string[] = [];
  for (const model of all) {
    if (!model.fields.has('environmentId')) continue;
    for (const [field, rest] of model.fields) {
      if (field === 'environmentId') continue;
      if (/@id\b/.test(rest)) broken.push(`${model.name}: primary key (${field})`);
      if (/@unique\b/.test(rest)) broken.push(`${model.name}: unique (${field})`);
    }
    for (const attribute of model.attributes) {
      const key = /^@@(id|unique)\(\[([^\]]*)\]/.exec(attribute);
      if (!key) continue;
      const columns = (key[2] ?? '').split(',').map((c) => c.trim());
      if (!columns.includes('environmentId')) {
        broken.push(`${model.name}: ${key[1] === 'id' ? 'primary key' : 'unique'} (${columns.join(', ')})`);
      }
    }
  }
  return broken.sort();
}

const ID =
  'an opaque id (<type>:<hash>, or UUID v7) that is unique across environments by construction, referenced alone by ' +
  'foreign keys: making the key (environment_id, id) changes every table and foreign key (a whole-schema migration)';
const CHILD =
  'unique within a parent row whose id is unique across environments, so unique per environment too; it gains ' +
  'environment_id with the composite keys above';
const GLOBAL =
  'global data (issue 30 section 2: tokens and sessions stay in the first cluster), found by this secret or key ' +
  'before the environment is known';

/** The known exceptions, each with its reason. */
const KNOWN: Record<string, string> = {
  'Absence: primary key (id)': ID,
  'AbsenceType: primary key (id)': ID,
  'AdvanceServiceConfiguration: primary key (id)': ID,
  'ApiToken: primary key (id)': ID,
  'ApiToken: unique (key)': GLOBAL,
  'ApprovalStatus: primary key (id)': ID,
  'Assignment: primary key (id)': ID,
  'AssignmentEmployee: primary key (id)': ID,
  'AssignmentEmployee: unique (assignmentId, employeeId)': CHILD,
  'AssignmentStatus: primary key (id)': ID,
  'ChunkedUpload: primary key (id)': ID,
  'ChunkedUpload: unique (uploadQueueId)': CHILD,
  'CivilStatus: primary key (id)': ID,
  'ContactPerson: primary key (id)': ID,
  'ContactPerson: unique (organizationId, personId)': CHILD,
  'Contract: primary key (id)': ID,
  'ContractType: primary key (id)': ID,
  'CostType: primary key (id)': ID,
  'Country: primary key (id)': ID,
  'CustomField: primary key (id)': ID,
  'CustomFieldGroup: primary key (id)': ID,
  'CustomFieldModel: primary key (id)': ID,
  'CustomFieldOption: primary key (id)': ID,
  'CustomFieldType: primary key (id)': ID,
  'CustomFieldValue: primary key (customFieldId, entityId)': CHILD,
  'DefaultAction: primary key (id)': ID,
  'DefaultService: primary key (id)': ID,
  'DefaultServiceCostType: primary key (id)': ID,
  'DefaultServiceHourType: primary key (id)': ID,
  'DefaultTask: primary key (id)': ID,
  'DefaultWorkflow: primary key (id)': ID,
  'DefaultWorkflowGroup: primary key (id)': ID,
  'Document: primary key (id)': ID,
  'Document: unique (uploadId)': CHILD,
  'DocumentType: primary key (id)': ID,
  'Employee: primary key (id)': ID,
  'EmployeeStatus: primary key (id)': ID,
  'EmployeeType: primary key (id)': ID,
  'EmploymentType: primary key (id)': ID,
  'Event: primary key (id)': ID,
  'Expense: primary key (id)': ID,
  'ExpenseAttachment: primary key (id)': ID,
  'ExpenseAttachment: unique (expenseId, documentId)': CHILD,
  'ExternalDocument: primary key (id)': ID,
  'Gender: primary key (id)': ID,
  'HourApproval: primary key (id)': ID,
  'HourRegistration: primary key (id)': ID,
  'HourType: primary key (id)': ID,
  'Industry: primary key (id)': ID,
  'Interest: primary key (id)': ID,
  'Invoice: primary key (id)': ID,
  'InvoiceDraftRequest: primary key (id)': ID,
  'InvoiceDraftRequestProject: primary key (id)': ID,
  'InvoiceDraftRequestProject: unique (requestId, projectId)': CHILD,
  'InvoiceLine: primary key (id)': ID,
  'InvoiceStatus: primary key (id)': ID,
  'Leave: primary key (id)': ID,
  'LeaveStatus: primary key (id)': ID,
  'LeaveType: primary key (id)': ID,
  'LoginLink: primary key (id)': ID,
  'LoginLink: unique (secretHash)': GLOBAL,
  'MailingList: primary key (id)': ID,
  'Mileage: primary key (id)': ID,
  'MyOrganizationProfile: primary key (id)': ID,
  'MyOrganizationProfileAccess: primary key (profileId, userId)': CHILD,
  'Organization: primary key (id)': ID,
  'OrganizationAddress: primary key (id)': ID,
  'OrganizationAddress: unique (organizationId, kind)': CHILD,
  'OrganizationInterest: primary key (organizationId, interestId)': CHILD,
  'OrganizationSize: primary key (id)': ID,
  'Payment: primary key (id)': ID,
  'PaymentTerm: primary key (id)': ID,
  'Person: primary key (id)': ID,
  'PersonAddress: primary key (id)': ID,
  'PersonAddress: unique (personId)': CHILD,
  'PersonInterest: primary key (personId, interestId)': CHILD,
  'PersonMailingList: primary key (personId, mailingListId)': CHILD,
  'Project: primary key (id)': ID,
  'ProjectEmployee: primary key (id)': ID,
  'ProjectEmployee: unique (projectId, employeeId)': CHILD,
  'ProjectFilter: primary key (id)': ID,
  'ProjectService: primary key (id)': ID,
  'ProjectServiceCostType: primary key (id)': ID,
  'ProjectServiceHourType: primary key (id)': ID,
  'ProjectServiceInstallment: primary key (id)': ID,
  'ProjectStatus: primary key (id)': ID,
  'Purchase: primary key (id)': ID,
  'Quote: primary key (id)': ID,
  'QuoteEmail: primary key (id)': ID,
  'QuoteLine: primary key (id)': ID,
  'QuoteServiceGroup: primary key (id)': ID,
  'QuoteStatus: primary key (id)': ID,
  'QuoteTemplate: primary key (id)': ID,
  'RelationType: primary key (id)': ID,
  'ReminderSet: primary key (id)': ID,
  'ReminderSetTemplate: primary key (id)': ID,
  'ReminderTemplate: primary key (id)': ID,
  'RevenueGroup: primary key (id)': ID,
  'Sale: primary key (id)': ID,
  'SaleProject: primary key (saleId, projectId)': CHILD,
  'SaleService: primary key (id)': ID,
  'SaleServiceCostType: primary key (id)': ID,
  'SaleServiceHourType: primary key (id)': ID,
  'SalesFilter: primary key (id)': ID,
  'SalesProgress: primary key (id)': ID,
  'SalesReason: primary key (id)': ID,
  'SalesSource: primary key (id)': ID,
  'SalesStatus: primary key (id)': ID,
  'SharedItem: primary key (id)': ID,
  'StorageAsset: primary key (id)': ID,
  'Team: primary key (id)': ID,
  'TeamEmployee: primary key (id)': ID,
  'TeamEmployee: unique (teamId, employeeId)': CHILD,
  'TimelineAttachment: primary key (id)': ID,
  'TimelineAttachment: unique (messageId, documentId)': CHILD,
  'TimelineMessage: primary key (id)': ID,
  'TimelineMessageType: primary key (id)': ID,
  'Timer: primary key (id)': ID,
  'TimesheetRow: primary key (id)': ID,
  'Timetable: primary key (id)': ID,
  'User: primary key (id)': ID,
  'VatClass: primary key (id)': ID,
  'WebSession: primary key (id)': ID,
  'WebSession: unique (secretHash)': GLOBAL,
  'WebhookAttempt: primary key (id)': ID,
  'WebhookDelivery: primary key (id)': ID,
  'WebhookDelivery: unique (subscriptionId, eventId)': CHILD,
  'WebhookSubscription: primary key (id)': ID,
  'Workflow: primary key (id)': ID,
  'WorkflowTask: primary key (id)': ID,
};

describe('data layout', () => {
  it('every tenant table keys and unique constraints include environment_id, but for the known exceptions listed with their reasons', () => {
    const all = models();
    const tenant = all.filter((m) => m.fields.has('environmentId'));
    // the parser reads the schema at all: every model but a few global ones is a tenant model
    expect(tenant.length).toBeGreaterThan(100);
    expect(keysWithoutEnvironment(all)).toEqual(Object.keys(KNOWN).sort());
  });

  it('the check finds a key without environment_id and passes one with it', () => {
    const model = (fields: [string, string][], attributes: string[]): Model => ({
      name: 'Probe',
      fields: new Map(fields),
      attributes,
    });
    expect(
      keysWithoutEnvironment([
        model(
          [
            ['id', '@id'],
            ['environmentId', ''],
          ],
          [],
        ),
      ]),
    ).toEqual(['Probe: primary key (id)']);
    expect(
      keysWithoutEnvironment([
        model(
          [
            ['id', ''],
            ['environmentId', ''],
          ],
          ['@@id([environmentId, id])'],
        ),
      ]),
    ).toEqual([]);
    expect(
      keysWithoutEnvironment([
        model(
          [
            ['code', ''],
            ['environmentId', ''],
          ],
          ['@@unique([code])'],
        ),
      ]),
    ).toEqual(['Probe: unique (code)']);
    expect(keysWithoutEnvironment([model([['environmentId', '@id']], [])])).toEqual([]);
    // a model without environmentId (global data) is not a tenant table
    expect(keysWithoutEnvironment([model([['id', '@id']], [])])).toEqual([]);
  });
});
