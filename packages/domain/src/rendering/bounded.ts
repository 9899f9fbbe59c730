import type { InvoicePdfData } from '../invoices/pdf/render-invoice-pdf.js';
import type { DomainContext } from '../shared/context.js';
import { UnavailableError } from '../shared/errors.js';
import { type RenderPool, sharedRenderPool } from './render-pool.js';

/** The render pool of a context: the service's, else the process's own (the CLI, the worker). */
export function renderPoolOf(ctx: Pick<DomainContext, 'services'>): RenderPool {
  return ctx.services?.rendering ?? sharedRenderPool();
}

/** Whose turn a job takes in the fair share: its environment ('system' for internal callers). */
export function renderTurnOf(ctx: Pick<DomainContext, 'principal'>): string {
  return ctx.principal?.kind === 'user' ? ctx.principal.environmentId : 'system';
}

/**
 * An invoice as a PDF, laid out (render-invoice-pdf.ts) in a render process: an invoice
 * drafted from many hours has thousands of lines (20,000 took 3.3 s and 200 MB in the
 * service's own process). It goes to the front of its environment's queue (a send waits
 * for it in its transaction), and a failure refuses the send (503), nothing stored.
 */
export async function renderInvoicePdfBounded(
  ctx: Pick<DomainContext, 'services' | 'principal'>,
  data: InvoicePdfData,
): Promise<Uint8Array> {
  const result = await renderPoolOf(ctx).run(renderTurnOf(ctx), { kind: 'invoice-pdf', data }, { first: true });
  if (result.ok) return result.bytes;
  throw new UnavailableError(`the invoice PDF could not be rendered (${result.reason}: ${result.message})`);
}
