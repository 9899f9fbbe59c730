import type { DraftSource } from './draft-source.js';

interface Row {
  id: string;
  supplier: string | null;
  invoice_number: string | null;
  invoice_date: string | null;
  amount: string;
  service_id: string;
  vat_class_id: string | null;
  revenue_group_id: string | null;
}

/**
 * Costs: the booked costs of the project (its purchases with an invoice amount, booked
 * on or before the invoice date), billed at cost on the project's first open
 * time-and-expenses service (a fixed-price or subscription project carries its own
 * costs). Claimed by its line's source ('purchase', purchase id).
 */
export const purchaseSource: DraftSource = {
  name: 'purchase',
  async collect(c) {
    const rows = await c.sql.read<Row>(
      `SELECT pu.id, pu.supplier, pu.invoice_number, to_char(pu.invoice_date, 'YYYY-MM-DD') AS invoice_date,
              pu.invoice_amount::text AS amount, s.id AS service_id, s.vat_class_id, s.revenue_group_id
         FROM purchase pu
         JOIN LATERAL (SELECT s.id, s.vat_class_id, s.revenue_group_id FROM project_service s
                        WHERE s.environment_id = $1 AND s.project_id = $2 AND s.phase = 'execution'
                          AND s.kind = 'invoiceable' AND s.invoice_method = 'time_and_expenses' AND s.track_cost
                        ORDER BY s.created_at, s.id LIMIT 1) s ON true
        WHERE pu.environment_id = $1 AND pu.project_id = $2 AND pu.invoice_amount IS NOT NULL AND pu.invoice_amount <> 0
          AND (pu.invoice_date IS NULL OR pu.invoice_date <= $3::date)
          AND NOT EXISTS (SELECT 1 FROM invoice_line l WHERE l.environment_id = $1 AND l.source_type = 'purchase' AND l.source_id = pu.id)
        ORDER BY pu.invoice_date NULLS LAST, pu.created_at, pu.id`,
      [c.projectId, c.invoiceDate],
    );
    return rows.map((r) => ({
      description: ['Costs', r.supplier, r.invoice_number].filter(Boolean).join(': '),
      quantity: 1,
      price: r.amount,
      vatClassId: r.vat_class_id,
      revenueGroupId: r.revenue_group_id,
      projectServiceId: r.service_id,
      projectId: c.projectId,
      lineDate: r.invoice_date ? new Date(`${r.invoice_date}T00:00:00.000Z`) : c.invoiceDate,
      sourceType: 'purchase',
      sourceId: r.id,
    }));
  },
};
