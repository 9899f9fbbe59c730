import { SCOPED_ENVIRONMENT } from '@bo/db';
import { z } from 'zod';
import { employee } from '../hrm/employee/employee.entity.js';
import { organization } from '../crm/organization/organization.entity.js';
import { person } from '../crm/person/person.entity.js';
import { assertReferences, inWrite, recordChange } from '../shared/entity/index.js';
import { NotFoundError, REQUIRED_MESSAGE } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import { dateInput, withPlainDecimals } from '../shared/numbers.js';
import type { UserContext } from '../trpc.js';
import { copyLatestQuote } from './quote/copy-latest-quote.js';
import { sale } from './sale.entity.js';
import { assertContactOfOrganization, resolveRelation } from './sale.write.js';

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
  return inWrite(ctx, async (w) => {
    const { tx, now } = w;
    const source = await tx.sale.findFirst({ where: { id: saleId } });
    if (!source) throw new NotFoundError('sale', saleId);
    const relationInput = input.isNewOrganizationOrPerson
      ? { organizationId: input.organizationId, personId: input.personId }
      : {};
    const responsible = input.isNewResponsibleEmployee ? input.responsibleEmployeeId : undefined;
    await assertReferences(w.sql, [
      { path: 'organizationId', target: organization, id: relationInput.organizationId },
      { path: 'personId', target: person, id: relationInput.personId },
      { path: 'responsibleEmployeeId', target: employee, id: responsible },
    ]);
    const relation = resolveRelation(source, relationInput);
    await assertContactOfOrganization(tx, relationInput, relation);

    const copyId = newEntityId('sale');
    const { id: _id, environmentId: _env, createdAt: _c, updatedAt: _u, ...columns } = source;
    await tx.sale.create({
      data: {
        ...withPlainDecimals(columns),
        ...relation,
        id: copyId,
        environmentId: SCOPED_ENVIRONMENT,
        subject: input.isNewSubject && input.subject ? input.subject : source.subject,
        responsibleEmployeeId: responsible === undefined ? source.responsibleEmployeeId : responsible,
        startDate: input.startDate === undefined ? source.startDate : input.startDate,
        expectedClosingDate: input.endDate === undefined ? source.expectedClosingDate : input.endDate,
        createdAt: now,
        updatedAt: now,
      },
    });
    const values = await tx.customFieldValue.findMany({ where: { entityId: saleId } });
    if (values.length) {
      await tx.customFieldValue.createMany({
        data: values.map((v) => ({
          environmentId: SCOPED_ENVIRONMENT,
          customFieldId: v.customFieldId,
          entityId: copyId,
          value: v.value,
        })),
      });
    }
    if (input.copyLatestQuote) await copyLatestQuote(w, saleId, copyId);
    await recordChange(w, sale, copyId, 'created');
    return { id: copyId };
  });
}
