import type { TenantReader } from '@bo/db';
import { BookingRefused } from '../../hours/hours/hours.write.js';
import { dateText, insertRows, optionalDateText } from '../../projects/sql-writes.js';
import type { EntityCreate, EntityUpdate, SqlWriteContext } from '../../shared/entity/index.js';
import { NotFoundError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import type { CreateExpenseInput, UpdateExpenseInput } from './expense.schema.js';

/** What a booking of costs reads of its service (decimals as their exact text). */
interface ServiceToBookOn {
  id: string;
  name: string;
  projectId: string;
  projectName: string;
  projectClosed: boolean;
  trackCost: boolean;
  status: string;
  invoiceMethod: string;
  /** the service's line of the cost type booked, with the cost type's own tariff and rules */
  line: {
    billable: boolean;
    tariff: string | null;
    purchaseTariff: string | null;
    label: string;
    typeTariff: string | null;
    isAttachmentAllowed: boolean;
  } | null;
}

/**
 * Books costs: only on a service with track_cost, with a cost type the service carries,
 * not on a closed project or an invoiced service; attachments only where the cost
 * (purchase) type allows them (2021: is_attachment_allowed).
 */
export const createExpense: EntityCreate<CreateExpenseInput> = {
  async run({ sql, now }, input) {
    const [service] = await sql.read<ServiceToBookOn>(
      `SELECT s.id, s.name, s.project_id AS "projectId", p.name AS "projectName",
              COALESCE(ps.is_closed, false) AS "projectClosed", s.track_cost AS "trackCost", s.status,
              s.invoice_method AS "invoiceMethod",
              (SELECT json_build_object('billable', l.billable, 'tariff', l.tariff::text, 'purchaseTariff', l.purchase_tariff::text,
                                        'label', c.label, 'typeTariff', c.tariff::text,
                                        'isAttachmentAllowed', c.is_attachment_allowed)
                 FROM project_service_cost_type l JOIN cost_type c ON c.environment_id = $1 AND c.id = l.cost_type_id
                WHERE l.environment_id = $1 AND l.project_service_id = s.id AND l.cost_type_id = $3
                ORDER BY l.position, l.id LIMIT 1) AS line
         FROM project_service s
         JOIN project p ON p.environment_id = $1 AND p.id = s.project_id
         LEFT JOIN project_status ps ON ps.environment_id = $1 AND ps.id = p.project_status_id
        WHERE s.environment_id = $1 AND s.id = $2`,
      [input.projectServiceId, input.costTypeId],
    );
    if (!service) throw new NotFoundError('projectservice', input.projectServiceId);
    if (!service.trackCost) {
      throw new BookingRefused(
        'service_does_not_track_cost',
        `Costs can only be booked on a service that tracks costs; ${service.name} does not.`,
      );
    }
    const { line } = service;
    if (!line) throw new BookingRefused('cost_type_not_on_service', `The cost type is not one of the service ${service.name}.`);
    if (service.projectClosed) {
      throw new BookingRefused('project_closed', `The project ${service.projectName} is closed; no costs can be booked on it.`);
    }
    if (service.status === 'invoiced') {
      throw new BookingRefused('service_invoiced', `The service ${service.name} is invoiced; no costs can be booked on it.`);
    }
    if (input.attachments?.length && !line.isAttachmentAllowed) {
      throw new BookingRefused('attachment_not_allowed', `The cost type ${line.label} does not allow attachments.`);
    }
    let billable = line.billable;
    if (input.billable !== null && input.billable !== undefined && input.billable !== line.billable) {
      if (!(line.billable && service.invoiceMethod === 'time_and_expenses')) {
        throw new BookingRefused('billable_not_allowed', 'The cost type line does not allow that billable value.');
      }
      billable = input.billable;
    }
    const id = newEntityId('expense');
    await sql.insert('expense', {
      id,
      employee_id: input.employeeId,
      project_id: service.projectId,
      project_service_id: service.id,
      cost_type_id: input.costTypeId,
      start_date: dateText(input.startDate),
      amount: input.amount,
      tariff: line.tariff ?? line.typeTariff,
      purchase_price: input.purchasePrice ?? line.purchaseTariff ?? null,
      billable,
      note: input.note ?? null,
      updated_at: now,
    });
    const documents = [...new Set((input.attachments ?? []).map((a) => a.id))];
    await insertRows(
      sql,
      'expense_attachment',
      ['id', 'expense_id', 'document_id'],
      documents.map((documentId) => [newEntityId('expenseattachment'), id, documentId]),
    );
    return id;
  },
};

/** An approved or invoiced expense can no longer change (read from the row the write has locked). */
async function assertChangeable(sql: TenantReader, id: string) {
  const [e] = await sql.read<{ invoiceId: string | null; approvalStatus: string }>(
    'SELECT invoice_id AS "invoiceId", approval_status AS "approvalStatus" FROM expense WHERE environment_id = $1 AND id = $2',
    [id],
  );
  if (!e) throw new NotFoundError('expense', id);
  if (e.invoiceId || e.approvalStatus === 'approved') {
    throw new BookingRefused(
      'expense_locked',
      `The expense is ${e.invoiceId ? 'invoiced' : 'approved'}; it can no longer change.`,
    );
  }
}

export const updateExpense: EntityUpdate<UpdateExpenseInput> = {
  async run({ sql, now }, id, input) {
    await assertChangeable(sql, id);
    await sql.update('expense', id, {
      start_date: optionalDateText(input.startDate),
      amount: input.amount,
      purchase_price: input.purchasePrice,
      note: input.note,
      updated_at: now,
    });
  },
};

export async function removeExpense({ sql }: SqlWriteContext, id: string): Promise<void> {
  await assertChangeable(sql, id);
  await sql.deleteById('expense', id);
}
