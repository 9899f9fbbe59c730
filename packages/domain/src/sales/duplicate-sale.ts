import { z } from 'zod';
import { employee } from '../hrm/employee/employee.entity.js';
import { organization } from '../crm/organization/organization.entity.js';
import { person } from '../crm/person/person.entity.js';
import { assertReferences, inSqlWrite, recordChange } from '../shared/entity/index.js';
import { NotFoundError, REQUIRED_MESSAGE } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import { dateInput } from '../shared/numbers.js';
import type { UserContext } from '../trpc.js';
import { copyLatestQuote } from './quote/copy-latest-quote.js';
import { sale } from './sale.entity.js';
import { assertSaleRules, resolveRelation, type SaleRelation } from './sale.write.js';
import { optionalDateText } from './sql-writes.js';

const id = z.string().min(1).max(255);

/**
 * What a duplicate takes (reference: PostDuplicateSales, plus copyLatestQuote from
 * 2025-01). Each `isNew*` flag says the copy takes the value sent beside it;
 * startDate and endDate (the expected closing date) are set on the copy when given.
 */
export const duplicateSaleInput = z
  .object({
    copyLatestQuote: z.boolean().optional(),
    isNewSubject: z.boolean().optional(),
    subject: z.string().trim().min(1).max(255).optional(),
    isNewResponsibleEmployee: z.boolean().optional(),
    responsibleEmployeeId: id.nullable().optional(),
    isNewOrganizationOrPerson: z.boolean().optional(),
    organizationId: id.optional(),
    personId: id.optional(),
    startDate: dateInput.nullable().optional(),
    endDate: dateInput.nullable().optional(),
  })
  .superRefine((b, issue) => {
    const need = (flag: boolean | undefined, given: boolean, path: string) => {
      if (flag && !given) issue.addIssue({ code: 'custom', path: [path], message: REQUIRED_MESSAGE });
    };
    need(b.isNewSubject, b.subject !== undefined, 'subject');
    need(b.isNewResponsibleEmployee, b.responsibleEmployeeId !== undefined, 'responsibleEmployeeId');
    need(b.isNewOrganizationOrPerson, b.organizationId !== undefined || b.personId !== undefined, 'organizationId');
  });
export type DuplicateSaleInput = z.infer<typeof duplicateSaleInput>;

/**
 * A copy of a sale with a new id: its fields and custom-field values, with the
 * changes the body asks for, and its own `sale.created` event. Linked projects
 * are not copied: a project belongs to the sale it was linked to. With
 * copyLatestQuote the sale's latest quote is copied too, as a draft of the copy.
 */
export async function duplicateSale(ctx: UserContext, saleId: string, input: DuplicateSaleInput): Promise<{ id: string }> {
  return inSqlWrite(ctx, async (w) => {
    const { sql, now } = w;
    const [source] = await sql.read<SaleRelation>(
      `SELECT organization_id AS "organizationId", person_id AS "personId", contact_id AS "contactId"
         FROM sale WHERE environment_id = $1 AND id = $2`,
      [saleId],
      { stablePlan: true },
    );
    if (!source) throw new NotFoundError('sale', saleId);
    const relationInput = input.isNewOrganizationOrPerson
      ? { organizationId: input.organizationId, personId: input.personId }
      : {};
    const responsible = input.isNewResponsibleEmployee ? input.responsibleEmployeeId : undefined;
    await assertReferences(sql, [
      { path: 'organizationId', target: organization, id: relationInput.organizationId },
      { path: 'personId', target: person, id: relationInput.personId },
      { path: 'responsibleEmployeeId', target: employee, id: responsible },
    ]);
    const relation = resolveRelation(source, relationInput);
    await assertSaleRules(sql, relationInput, relation, null);

    const copyId = newEntityId('sale');
    // the copy is made from the row by PostgreSQL: every column as stored, but for the ones the body changes
    await sql.queue(
      `INSERT INTO sale (environment_id, id, subject, organization_id, person_id, contact_id, my_organization_profile_id,
                         responsible_employee_id, start_date, expected_closing_date, expected_revenue, chance_to_score,
                         note, divergent_payment_term_id, status_id, progress_id, source_id, reason_id, status_updated_at,
                         created_at, updated_at)
       SELECT $1, $3, COALESCE($4, s.subject), $5, $6, $7, s.my_organization_profile_id,
              CASE WHEN $8 THEN $9 ELSE s.responsible_employee_id END,
              CASE WHEN $10 THEN $11::date ELSE s.start_date END,
              CASE WHEN $12 THEN $13::date ELSE s.expected_closing_date END,
              s.expected_revenue, s.chance_to_score, s.note, s.divergent_payment_term_id, s.status_id, s.progress_id,
              s.source_id, s.reason_id, s.status_updated_at, $14::timestamptz, $14::timestamptz
         FROM sale s WHERE s.environment_id = $1 AND s.id = $2`,
      [
        saleId,
        copyId,
        input.isNewSubject && input.subject ? input.subject : null,
        relation.organizationId,
        relation.personId,
        relation.contactId,
        responsible !== undefined,
        responsible ?? null,
        input.startDate !== undefined,
        optionalDateText(input.startDate) ?? null,
        input.endDate !== undefined,
        optionalDateText(input.endDate) ?? null,
        now,
      ],
    );
    await sql.queue(
      `INSERT INTO custom_field_value (environment_id, custom_field_id, entity_id, value)
       SELECT $1, v.custom_field_id, $3, v.value FROM custom_field_value v WHERE v.environment_id = $1 AND v.entity_id = $2`,
      [saleId, copyId],
    );
    if (input.copyLatestQuote) await copyLatestQuote(w, saleId, copyId);
    await recordChange(w, sale, copyId, 'created', false);
    return { id: copyId };
  });
}
