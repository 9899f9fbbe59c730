import type { DraftSource } from './draft-source.js';

interface Row {
  id: string;
  name: string;
  quantity: string;
  price: string;
  vat_class_id: string | null;
  revenue_group_id: string | null;
}

/**
 * Fixed price: the price × amount of a fixed-price service (or an advance), once, when it
 * is not invoiced in installments. Claimed by its line's source ('fixed_price', service id).
 */
export const fixedPriceSource: DraftSource = {
  name: 'fixed_price',
  async collect(c) {
    const rows = await c.sql.read<Row>(
      `SELECT s.id, s.name, COALESCE(s.amount, 1)::text AS quantity, s.price::text AS price, s.vat_class_id, s.revenue_group_id
         FROM project_service s
        WHERE s.environment_id = $1 AND s.project_id = $2 AND s.phase = 'execution'
          AND s.kind IN ('invoiceable', 'advance') AND s.invoice_method = 'fixed_price' AND NOT s.invoice_in_installments
          AND s.price IS NOT NULL AND s.price * COALESCE(s.amount, 1) <> 0
          AND NOT EXISTS (SELECT 1 FROM invoice_line l WHERE l.environment_id = $1 AND l.source_type = 'fixed_price' AND l.source_id = s.id)
        ORDER BY s.created_at, s.id`,
      [c.projectId],
    );
    return rows.map((r) => ({
      description: r.name,
      quantity: r.quantity,
      price: r.price,
      vatClassId: r.vat_class_id,
      revenueGroupId: r.revenue_group_id,
      projectServiceId: r.id,
      projectId: c.projectId,
      lineDate: c.invoiceDate,
      sourceType: 'fixed_price',
      sourceId: r.id,
    }));
  },
};
