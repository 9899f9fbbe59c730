import { costLineCopy } from './service/sale-service.write.js';
import { SCOPED_ENVIRONMENT } from '@bo/db';
import { inWrite, recordChange, type WriteContext } from '../shared/entity/index.js';
import { BusinessRuleError, ConflictError, ForbiddenError, NotFoundError } from '../shared/errors.js';
import { recordEvent } from '../shared/events.js';
import { newEntityId, uuidv7 } from '../shared/ids.js';
import { hasRight } from '../shared/rights.js';
import { quote as quoteEntity } from './quote/quote.entity.js';
import { countedLines } from './quote/quote-totals.js';
import { sale } from './sale.entity.js';

/**
 * The sale's accepted quote, latest first, locked; converting needs one. The caller holds
 * the sale's lock; the quote's own row lock is taken before its state is read, the lock
 * that its acceptance, its edits and its deletion take too (a quote's writes lock the
 * quote, then nothing of the sale: no cycle). A quote deleted while this waited is not
 * converted: the next accepted one is looked for, or none is left.
 */
async function acceptedQuote(w: WriteContext, saleId: string) {
  const accepted = await w.tx.quoteStatus.findFirst({ where: { key: 'accepted' } });
  const latest = () =>
    accepted
      ? w.tx.quote.findFirst({
          where: { saleId, quoteStatusId: accepted.id },
          orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
          select: { id: true },
        })
      : null;
  // each turn reads anew: a quote found gone is not found again (bounded all the same)
  for (let turn = 0; turn < 10; turn++) {
    const candidate = await latest();
    if (!candidate) break;
    if (!(await w.sql.lockForUpdate('quote', candidate.id))) continue;
    // read after the lock: the state as the last writer of this quote left it
    const found = await w.tx.quote.findFirst({
      where: { id: candidate.id, saleId, quoteStatusId: accepted?.id ?? '' },
      include: { groups: { orderBy: { position: 'asc' }, include: { lines: { orderBy: { position: 'asc' } } } } },
    });
    if (!found) continue;
    if (found.projectId) throw new ConflictError(`quote ${found.quoteNumber} was converted already, into ${found.projectId}`);
    return found;
  }
  throw new BusinessRuleError('id: the sale has no accepted quote; a sale is converted from its accepted quote');
}

/**
 * Converts a sale into a project (v2 GET sales/converttoproject/{id}, v3
 * sale.convertToProject): in one transaction the project is created for the sale's
 * relation, a project service for every counted line of the accepted quote (with the
 * sale service's invoice method, VAT class, revenue group and hour types), the
 * project is linked to the sale (its linkedProjects show it) and the quote remembers
 * it. Events: project.created, projectservice.created for each service, quote and
 * sale updated. The projects area's tables are written through their Prisma models.
 */
export async function convertSaleToProject(
  ctx: Parameters<typeof inWrite>[0],
  saleId: string,
): Promise<{ id: string; projectId: string }> {
  // the project and its services are the projects module's: creating them needs its write right too
  if (!hasRight(ctx.principal.rights, 'projects', 'write')) {
    throw new ForbiddenError('converting a sale creates a project: it needs the projects write right');
  }
  return inWrite(ctx, async (w) => {
    const { tx, now } = w;
    if (!(await w.sql.lockForUpdate('sale', saleId))) throw new NotFoundError('sale', saleId);
    const source = await tx.sale.findFirstOrThrow({ where: { id: saleId } });
    const quote = await acceptedQuote(w, saleId);

    const status = await tx.projectStatus.findFirst({
      where: { isClosed: false },
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
    });
    const projectId = newEntityId('project');
    const project = await tx.project.create({
      data: {
        id: projectId,
        environmentId: SCOPED_ENVIRONMENT,
        name: quote.quoteSubject ?? source.subject,
        organizationId: source.organizationId,
        personId: source.personId,
        contactId: source.contactId,
        myOrganizationProfileId: source.myOrganizationProfileId,
        projectStatusId: status?.id ?? null,
        phase: 'execution',
        createdAt: now,
        updatedAt: now,
      },
    });
    await recordEvent(w.sql, {
      entityType: 'project',
      entityId: projectId,
      change: 'created',
      data: JSON.parse(JSON.stringify(project)),
    });

    const serviceIds = quote.groups.flatMap((g) => g.lines.map((l) => l.saleServiceId)).filter((x): x is string => !!x);
    const saleServices = new Map(
      (await tx.saleService.findMany({ where: { id: { in: serviceIds } }, include: { hourTypes: true, costTypes: true } })).map(
        (s) => [s.id, s],
      ),
    );
    for (const group of quote.groups) {
      const counted = countedLines({
        type: group.type as 'all_included',
        lines: group.lines.map((l) => ({ quantity: 0, price: 0, vatClassId: null, vatPercentage: 0, chosen: l.chosen })),
      });
      for (const [i, line] of group.lines.entries()) {
        if (!counted[i]) continue;
        const from = line.saleServiceId ? saleServices.get(line.saleServiceId) : undefined;
        const id = uuidv7(now.getTime());
        const service = await tx.projectService.create({
          data: {
            id,
            environmentId: SCOPED_ENVIRONMENT,
            projectId,
            defaultServiceId: from?.defaultServiceId ?? null,
            kind: 'invoiceable',
            phase: 'execution',
            name: line.name,
            explanation: from?.explanation ?? null,
            invoiceMethod: from?.invoiceMethod ?? 'fixed_price',
            subscriptionCycle: from?.subscriptionCycle ?? null,
            amount: line.quantity.toString(),
            price: line.price.toString(),
            trackHours: from?.trackHours ?? true,
            trackCost: from?.trackCost ?? true,
            vatClassId: line.vatClassId,
            revenueGroupId: from?.revenueGroupId ?? null,
            createdAt: now,
            updatedAt: now,
          },
        });
        if (from?.hourTypes.length) {
          await tx.projectServiceHourType.createMany({
            data: from.hourTypes.map((h) => ({
              id: newEntityId('projecthourtype'),
              environmentId: SCOPED_ENVIRONMENT,
              projectServiceId: id,
              hourTypeId: h.hourTypeId,
              budgetedAmount: h.budgetedAmount?.toString() ?? null,
              tariff: h.tariff?.toString() ?? null,
              billable: h.billable,
              position: h.position,
            })),
          });
        }
        if (from?.costTypes.length) {
          await tx.projectServiceCostType.createMany({
            data: from.costTypes.map((c) => ({ ...costLineCopy(c), id: newEntityId('projectcosttype'), projectServiceId: id })),
          });
        }
        await recordEvent(w.sql, {
          entityType: 'projectservice',
          entityId: id,
          change: 'created',
          data: JSON.parse(JSON.stringify(service)),
        });
      }
    }

    const links = await tx.saleProject.count({ where: { saleId } });
    await tx.saleProject.create({
      data: { environmentId: SCOPED_ENVIRONMENT, saleId, projectId, createdAt: new Date(now.getTime() + links) },
    });
    await tx.quote.update({ where: { id: quote.id }, data: { projectId, updatedAt: now } });
    await tx.sale.update({ where: { id: saleId }, data: { updatedAt: now } });
    await recordChange(w, quoteEntity, quote.id, 'updated');
    await recordChange(w, sale, saleId, 'updated');
    return { id: saleId, projectId };
  });
}
