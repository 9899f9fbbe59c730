import { SCOPED_ENVIRONMENT } from '@bo/db';
import { recordChange, type WriteContext } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import { quote } from './quote.entity.js';
import { nextQuoteNumber, statusByKey } from './quote.write.js';

/**
 * The sale's latest quote with its groups and lines, read after its row lock (the lock its
 * edits and its deletion take): the copy is of one version of the quote, its totals those
 * of its lines. A quote deleted while this waited is passed over for the next latest.
 */
async function lockedLatestQuote(w: WriteContext, saleId: string) {
  for (let turn = 0; turn < 10; turn++) {
    const candidate = await w.tx.quote.findFirst({
      where: { saleId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { id: true },
    });
    if (!candidate) return null;
    if (!(await w.sql.lockForUpdate('quote', candidate.id))) continue;
    const found = await w.tx.quote.findFirst({
      where: { id: candidate.id },
      include: { groups: { include: { lines: true } } },
    });
    if (found) return found;
  }
  return null;
}

/** duplicate with copy_latest_quote (2025-01): the copy gets the latest quote, with its groups and lines, as a draft */
export async function copyLatestQuote(w: WriteContext, from: string, to: string): Promise<void> {
  const latest = await lockedLatestQuote(w, from);
  if (!latest) return;
  const draft = await statusByKey(w.tx, 'draft');
  const id = newEntityId('quote');
  const { groups, id: _i, environmentId: _e, createdAt: _c, updatedAt: _u, ...columns } = latest;
  await w.tx.quote.create({
    data: {
      ...columns,
      id,
      environmentId: SCOPED_ENVIRONMENT,
      saleId: to,
      quoteStatusId: draft.id,
      quoteNumber: await nextQuoteNumber(w),
      sentAt: null,
      projectId: null,
      totalExcl: columns.totalExcl.toString(),
      totalVat: columns.totalVat.toString(),
      totalIncl: columns.totalIncl.toString(),
      totals: {},
      createdAt: w.now,
      updatedAt: w.now,
    },
  });
  const totals = latest.totals as { groups?: Record<string, unknown>; grandTotals?: unknown };
  const groupTotals: Record<string, unknown> = {};
  for (const g of groups) {
    const groupId = newEntityId('quoteservicegroup');
    groupTotals[groupId] = totals.groups?.[g.id];
    await w.tx.quoteServiceGroup.create({
      data: {
        id: groupId,
        environmentId: SCOPED_ENVIRONMENT,
        quoteId: id,
        name: g.name,
        type: g.type,
        position: g.position,
        createdAt: w.now,
        updatedAt: w.now,
      },
    });
    if (g.lines.length) {
      await w.tx.quoteLine.createMany({
        data: g.lines.map((l) => ({
          id: newEntityId('quoteline'),
          environmentId: SCOPED_ENVIRONMENT,
          quoteId: id,
          groupId,
          // the copy's services are the sale's own; lines keep their values, not the original sale's services
          saleServiceId: null,
          name: l.name,
          quantity: l.quantity.toString(),
          price: l.price.toString(),
          vatClassId: l.vatClassId,
          vatPercentage: l.vatPercentage.toString(),
          chosen: l.chosen,
          position: l.position,
          createdAt: w.now,
          updatedAt: w.now,
        })),
      });
    }
  }
  await w.tx.quote.update({
    where: { id },
    data: { totals: { groups: groupTotals, grandTotals: totals.grandTotals ?? {} } as object },
  });
  await recordChange(w, quote, id, 'created');
}
