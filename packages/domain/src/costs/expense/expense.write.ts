import { SCOPED_ENVIRONMENT } from '@bo/db';
import { BookingRefused } from '../../hours/hours/hours.write.js';
import type { EntityCreate, EntityRemove, EntityUpdate, WriteContext } from '../../shared/entity/index.js';
import { NotFoundError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import type { CreateExpenseInput, UpdateExpenseInput } from './expense.schema.js';

/**
 * Books costs: only on a service with track_cost, with a cost type the service carries,
 * not on a closed project or an invoiced service; attachments only where the cost
 * (purchase) type allows them (2021: is_attachment_allowed).
 */
export const createExpense: EntityCreate<CreateExpenseInput> = {
  async run({ tx }, input) {
    const service = await tx.projectService.findUnique({
      where: { id: input.projectServiceId },
      include: { project: { include: { projectStatus: true } }, costTypes: { include: { costType: true } } },
    });
    if (!service) throw new NotFoundError('projectservice', input.projectServiceId);
    if (!service.trackCost) {
      throw new BookingRefused(
        'service_does_not_track_cost',
        `Costs can only be booked on a service that tracks costs; ${service.name} does not.`,
      );
    }
    const line = service.costTypes.find((l) => l.costTypeId === input.costTypeId);
    if (!line) throw new BookingRefused('cost_type_not_on_service', `The cost type is not one of the service ${service.name}.`);
    if (service.project.projectStatus?.isClosed) {
      throw new BookingRefused('project_closed', `The project ${service.project.name} is closed; no costs can be booked on it.`);
    }
    if (service.status === 'invoiced') {
      throw new BookingRefused('service_invoiced', `The service ${service.name} is invoiced; no costs can be booked on it.`);
    }
    if (input.attachments?.length && !line.costType.isAttachmentAllowed) {
      throw new BookingRefused('attachment_not_allowed', `The cost type ${line.costType.label} does not allow attachments.`);
    }
    let billable = line.billable;
    if (input.billable !== null && input.billable !== undefined && input.billable !== line.billable) {
      if (!(line.billable && service.invoiceMethod === 'time_and_expenses')) {
        throw new BookingRefused('billable_not_allowed', 'The cost type line does not allow that billable value.');
      }
      billable = input.billable;
    }
    const id = newEntityId('expense');
    const tariff = line.tariff ?? line.costType.tariff;
    await tx.expense.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        employeeId: input.employeeId,
        projectId: service.projectId,
        projectServiceId: service.id,
        costTypeId: input.costTypeId,
        startDate: input.startDate,
        amount: input.amount,
        tariff: tariff === null ? null : tariff.toNumber(),
        purchasePrice: input.purchasePrice ?? line.purchaseTariff?.toNumber() ?? null,
        billable,
        note: input.note ?? null,
      },
    });
    const documents = [...new Set((input.attachments ?? []).map((a) => a.id))];
    if (documents.length) {
      await tx.expenseAttachment.createMany({
        data: documents.map((documentId) => ({
          id: newEntityId('expenseattachment'),
          environmentId: SCOPED_ENVIRONMENT,
          expenseId: id,
          documentId,
        })),
      });
    }
    return id;
  },
};

/** An approved or invoiced expense can no longer change. */
async function assertChangeable(w: WriteContext, id: string) {
  const e = await w.tx.expense.findUniqueOrThrow({ where: { id }, select: { invoiceId: true, approvalStatus: true } });
  if (e.invoiceId || e.approvalStatus === 'approved') {
    throw new BookingRefused(
      'expense_locked',
      `The expense is ${e.invoiceId ? 'invoiced' : 'approved'}; it can no longer change.`,
    );
  }
}

export const updateExpense: EntityUpdate<UpdateExpenseInput> = {
  async run(w, id, input) {
    await assertChangeable(w, id);
    await w.tx.expense.update({
      where: { id },
      data: {
        startDate: input.startDate,
        amount: input.amount,
        purchasePrice: input.purchasePrice,
        note: input.note,
        updatedAt: w.now,
      },
    });
  },
};

export const removeExpense: EntityRemove = async (w, id) => {
  await assertChangeable(w, id);
  await w.sql.deleteById('expense', id);
};
