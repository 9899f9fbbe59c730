import type { InvoicePdfData } from '../invoices/pdf/render-invoice-pdf.js';
import type { DomainContext } from '../shared/context.js';
import { UnavailableError } from '../shared/errors.js';
import type { TenantReader } from '@bo/db';
import { type RenderPool, type RenderReservation, sharedRenderPool } from './render-pool.js';

/** The render pool of a context: the service's, else the process's own (the CLI, the worker). */
export function renderPoolOf(ctx: Pick<DomainContext, 'services'>): RenderPool {
  return ctx.services?.rendering ?? sharedRenderPool();
}

/** Whose turn a job takes in the fair share: its environment ('system' for internal callers). */
export function renderTurnOf(ctx: Pick<DomainContext, 'principal'>): string {
  return ctx.principal?.kind === 'user' ? ctx.principal.environmentId : 'system';
}

/**
 * A render process held, ready, for an invoice PDF that a transaction is about to make: taken before
 * the transaction begins (see RenderPool.reserve). Throws as a failed render would when none can be had.
 */
export async function reserveInvoiceRender(ctx: Pick<DomainContext, 'services' | 'principal'>): Promise<RenderReservation> {
  const reserved = await renderPoolOf(ctx).reserve(renderTurnOf(ctx), { first: true });
  if ('run' in reserved) return reserved;
  if (reserved.ok) throw new Error('a reservation answered a result before any job');
  throw new UnavailableError(`the invoice PDF could not be rendered (${reserved.reason}: ${reserved.message})`);
}

/**
 * An invoice as a PDF, laid out (render-invoice-pdf.ts) in a render process: an invoice
 * drafted from many hours has thousands of lines (20,000 took 3.3 s and 200 MB in the
 * service's own process). It goes to the front of its environment's queue, or to the process
 * reserved for it; a failure refuses the send (503), nothing stored. Called in a write
 * transaction, whose time limit is lengthened by the render's own bound while it runs (a
 * starved render under load is not a query that ran too long).
 */
export async function renderInvoicePdfBounded(
  ctx: Pick<DomainContext, 'services' | 'principal'>,
  sql: Pick<TenantReader, 'besideDatabase'>,
  data: InvoicePdfData,
  reserved?: RenderReservation,
): Promise<Uint8Array> {
  const pool = renderPoolOf(ctx);
  const job = { kind: 'invoice-pdf' as const, data };
  // a reserved process runs it at once; otherwise it may wait for one to be free as well
  const bound = pool.limits.timeoutMs + (reserved ? 0 : pool.limits.queueTimeoutMs);
  const render = () => (reserved ? reserved.run(job) : pool.run(renderTurnOf(ctx), job, { first: true }));
  const result = sql.besideDatabase ? await sql.besideDatabase(bound, render) : await render();
  if (result.ok) return result.bytes;
  throw new UnavailableError(`the invoice PDF could not be rendered (${result.reason}: ${result.message})`);
}
