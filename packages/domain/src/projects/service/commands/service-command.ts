import type { ChangeKind } from '../../../shared/events.js';
import { recordEvent } from '../../../shared/events.js';
import type { WriteContext } from '../../../shared/resources/definition.js';
import type { UserContext } from '../../../trpc.js';
import type { z } from 'zod';
import { loadProjectService, type ProjectServiceRow } from '../project-service.row.js';
import type { CreateProjectService, EditProjectService } from '../project-service.v3.schema.js';
import { projectServiceV3 } from '../project-service.views.js';
import type { ProjectServiceWrite, TypeLineInput } from '../save-project-service.js';

/** Runs a v3 service command in one transaction with its event; answers the service as stored. */
export async function serviceCommand(
  ctx: UserContext,
  change: ChangeKind,
  write: (w: WriteContext) => Promise<string>,
): Promise<ProjectServiceRow> {
  return ctx.db.$transaction(async (tx) => {
    const id = await write({ ctx, tx, now: ctx.clock.now() });
    const row = await loadProjectService(tx, id);
    if (!row) throw new Error(`project service ${id} vanished inside its own transaction`);
    await recordEvent(tx, { entityType: 'projectservice', entityId: id, change, data: projectServiceV3(row) });
    return row;
  });
}

type V3Lines = Pick<z.output<typeof EditProjectService>, 'hourTypes' | 'costTypes'>;

/**
 * v3 keeps hour types and cost types apart; the domain takes one list. A kind
 * the edit leaves out keeps the service's current lines of that kind.
 */
export function linesFromV3(input: V3Lines, existing?: ProjectServiceRow): TypeLineInput[] | undefined {
  if (input.hourTypes === undefined && input.costTypes === undefined) return undefined;
  const hours: TypeLineInput[] = input.hourTypes
    ? input.hourTypes.map((l, i) => ({
        path: `hourTypes.${i}`,
        idField: 'hourTypeId',
        typeId: l.hourTypeId,
        accepts: ['hourtype'],
        tariff: l.tariff,
        budgetedAmount: l.budgetedAmount,
        billable: l.billable,
      }))
    : (existing?.hourTypes ?? []).map((l, i) => ({
        path: `hourTypes.${i}`,
        idField: 'hourTypeId',
        typeId: l.hourTypeId,
        accepts: ['hourtype'],
        tariff: l.tariff?.toNumber() ?? null,
        budgetedAmount: l.budgetedAmount?.toNumber() ?? null,
        billable: l.billable,
      }));
  const costs: TypeLineInput[] = input.costTypes
    ? input.costTypes.map((l, i) => ({
        path: `costTypes.${i}`,
        idField: 'costTypeId',
        typeId: l.costTypeId,
        accepts: ['itemtype'],
        tariff: l.tariff,
        purchaseTariff: l.purchaseTariff,
        budgetedAmount: l.budgetedAmount,
        billable: l.billable,
      }))
    : (existing?.costTypes ?? []).map((l, i) => ({
        path: `costTypes.${i}`,
        idField: 'costTypeId',
        typeId: l.costTypeId,
        accepts: ['itemtype'],
        tariff: l.tariff?.toNumber() ?? null,
        purchaseTariff: l.purchaseTariff?.toNumber() ?? null,
        budgetedAmount: l.budgetedAmount?.toNumber() ?? null,
        billable: l.billable,
      }));
  return [...hours, ...costs];
}

/** The invoiceable fields of a v3 create or edit in the domain's words. */
export function invoiceableFromV3(
  input: Omit<z.output<typeof CreateProjectService>, 'projectId' | 'name' | 'invoiceMethod'> &
    Partial<Pick<z.output<typeof CreateProjectService>, 'projectId' | 'name' | 'invoiceMethod'>>,
  existing?: ProjectServiceRow,
): ProjectServiceWrite {
  const { hourTypes: _h, costTypes: _c, ...rest } = input;
  return { ...rest, lines: linesFromV3(input, existing) };
}
