import { SCOPED_ENVIRONMENT } from '@bo/db';
import { recordChange, type WriteContext } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import { quote } from './quote.entity.js';
import { nextQuoteNumber, statusByKey } from './quote.write.js';

/** duplicate with copy_latest_quote (2025-01): the copy gets the latest quote, with its groups and lines, as a draft */
export async function copyLatestQuote(w: WriteContext, from: string, to: string): Promise<void> {
  const latest = await w.tx.quote.findFirst({
    where: { saleId: from },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    include: { groups: { include: { lines: true } } },
  });
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
