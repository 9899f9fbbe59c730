import { SCOPED_ENVIRONMENT } from '@bo/db';
import { z } from 'zod';
import { NotFoundError, REQUIRED_MESSAGE } from '../shared/errors.js';
import { recordEvent } from '../shared/events.js';
import { newEntityId } from '../shared/ids.js';
import { dateInput, withPlainDecimals } from '../shared/numbers.js';
import type { UserContext } from '../trpc.js';
import { loadSales } from './sale.load.js';
import { saleV3 } from './sale.views.js';
import { assertSaleReferences, resolveRelation } from './sale.write.js';

const id = z.string().min(1).max(255);

/**
 * Body of POST sales/sales/{id}/duplicate (reference: PostDuplicateSales, plus
 * copy_latest_quote from 2025-01). Each `is_new_*` flag says the copy takes the
 * value sent beside it; start_date and end_date (the expected closing date) are
 * set on the copy when given.
 */
export const duplicateSaleSchema = z
  .object({
    copy_latest_quote: z.boolean().optional(),
    is_new_subject: z.boolean().optional(),
    subject: z.string().trim().min(1).max(255).optional(),
    is_new_responsible_employee: z.boolean().optional(),
    responsible_employee_id: id.nullable().optional(),
    is_new_organization_or_person: z.boolean().optional(),
    organization_id: id.optional(),
    person_id: id.optional(),
    start_date: dateInput.nullable().optional(),
    end_date: dateInput.nullable().optional(),
  })
  .superRefine((b, issue) => {
    const need = (flag: boolean | undefined, given: boolean, path: string) => {
      if (flag && !given) issue.addIssue({ code: 'custom', path: [path], message: REQUIRED_MESSAGE });
    };
    need(b.is_new_subject, b.subject !== undefined, 'subject');
    need(b.is_new_responsible_employee, b.responsible_employee_id !== undefined, 'responsible_employee_id');
    need(b.is_new_organization_or_person, b.organization_id !== undefined || b.person_id !== undefined, 'organization_id');
  });
export type DuplicateSaleInput = z.infer<typeof duplicateSaleSchema>;

/**
 * A copy of a sale with a new id: its fields and custom-field values, with the
 * changes the body asks for, and its own `sale.created` event. Linked projects
 * are not copied: a project belongs to the sale it was linked to. Quotes are not
 * built in this service, so `copy_latest_quote` is accepted and copies nothing.
 */
export async function duplicateSale(ctx: UserContext, saleId: string, input: DuplicateSaleInput): Promise<{ id: string }> {
  const environmentId = ctx.principal.environmentId;
  return ctx.db.$transaction(async (tx) => {
    const source = await tx.sale.findFirst({ where: { id: saleId } });
    if (!source) throw new NotFoundError('sale', saleId);
    const relationInput = input.is_new_organization_or_person
      ? { organization_id: input.organization_id, person_id: input.person_id }
      : {};
    const relation = resolveRelation(source, relationInput);
    const responsible = input.is_new_responsible_employee ? input.responsible_employee_id : undefined;
    await assertSaleReferences(tx, environmentId, { ...relationInput, responsible_employee_id: responsible }, relation);

    const now = ctx.clock.now();
    const copyId = newEntityId('sale');
    const { id: _id, environmentId: _env, createdAt: _c, updatedAt: _u, ...columns } = source;
    await tx.sale.create({
      data: {
        ...withPlainDecimals(columns),
        ...relation,
        id: copyId,
        environmentId: SCOPED_ENVIRONMENT,
        subject: input.is_new_subject && input.subject ? input.subject : source.subject,
        responsibleEmployeeId: responsible === undefined ? source.responsibleEmployeeId : responsible,
        startDate: input.start_date === undefined ? source.startDate : input.start_date,
        expectedClosingDate: input.end_date === undefined ? source.expectedClosingDate : input.end_date,
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
    const [copy] = await loadSales(tx, [copyId], environmentId);
    await recordEvent(tx, {
      entityType: 'sale',
      entityId: copyId,
      change: 'created',
      data: copy ? saleV3(copy) : { id: copyId },
    });
    return { id: copyId };
  });
}
