import type { TenantSql } from '@bo/db';
import type { InvoiceDraftProjectState, InvoiceDraftRequest, InvoiceDraftRequestState } from './invoice-draft-request.schema.js';

/** A request as stored, with its projects in their order (the date as YYYY-MM-DD). */
interface Row {
  id: string;
  status: string;
  invoiceDate: string | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  projects: { projectId: string; status: string; invoiceId: string | null; message: string | null }[];
}

/** The request and its projects, in one statement (in a write's transaction, or outside one). */
export async function loadInvoiceDraftRequest(sql: Pick<TenantSql, 'read'>, id: string): Promise<Row | null> {
  const [row] = await sql.read<Row>(
    `SELECT r.id, r.status, to_char(r.invoice_date, 'YYYY-MM-DD') AS "invoiceDate", r.created_at AS "createdAt",
            r.updated_at AS "updatedAt", r.started_at AS "startedAt", r.finished_at AS "finishedAt",
            COALESCE((SELECT json_agg(json_build_object('projectId', p.project_id, 'status', p.status, 'invoiceId', p.invoice_id,
                                                        'message', p.message) ORDER BY p.position, p.id)
                        FROM invoice_draft_request_project p WHERE p.environment_id = $1 AND p.request_id = r.id), '[]'::json)
              AS projects
       FROM invoice_draft_request r WHERE r.environment_id = $1 AND r.id = $2`,
    [id],
  );
  return row ?? null;
}

export function invoiceDraftRequestOf(r: Row): InvoiceDraftRequest {
  const counts = { total: r.projects.length, pending: 0, drafted: 0, skipped: 0, failed: 0 };
  for (const p of r.projects) counts[p.status as InvoiceDraftProjectState] += 1;
  return {
    id: r.id,
    status: r.status as InvoiceDraftRequestState,
    invoiceDate: r.invoiceDate,
    projects: counts,
    items: r.projects.map((p) => ({
      projectId: p.projectId,
      status: p.status as InvoiceDraftProjectState,
      invoiceId: p.invoiceId,
      message: p.message,
    })),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
  };
}
