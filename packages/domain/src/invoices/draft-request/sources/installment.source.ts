import type { DraftSource } from './draft-source.js';

interface Row {
  id: string;
  name: string;
  service_id: string;
  service_name: string;
  price: string;
  vat_class_id: string | null;
  revenue_group_id: string | null;
}

/**
 * Installments (fixed price only, by the installment rule): every open installment
 * that has come due by the invoice date (no expiration date: due at once). Its price,
 * or its percentage of the service's price × amount, rounded half up to 4 decimals.
 * Claimed by setting its invoice_id in an UPDATE … WHERE invoice_id IS NULL.
 */
export const installmentSource: DraftSource = {
  name: 'installment',
  async collect(c) {
    const rows = await c.sql.read<Row>(
      `WITH claimed AS (
         UPDATE project_service_installment i SET invoice_id = $3
           FROM project_service s
          WHERE i.environment_id = $1 AND s.environment_id = $1 AND s.id = i.project_service_id
            AND s.project_id = $2 AND s.phase = 'execution' AND s.kind IN ('invoiceable', 'advance')
            AND s.invoice_method = 'fixed_price' AND s.invoice_in_installments
            AND i.invoice_id IS NULL AND i.status = 'open'
            AND (i.expiration_date IS NULL OR i.expiration_date <= $4::date)
         RETURNING i.id, i.name, i.position, s.id AS service_id, s.name AS service_name,
                   round(COALESCE(i.price, i.percentage * COALESCE(s.price, 0) * COALESCE(s.amount, 1) / 100), 4) AS price,
                   s.vat_class_id, s.revenue_group_id)
       SELECT id, name, service_id, service_name, price::text AS price, vat_class_id, revenue_group_id
         FROM claimed ORDER BY service_id, position, id`,
      [c.projectId, c.invoiceId, c.invoiceDate],
    );
    return rows.map((r) => ({
      description: `${r.service_name}: ${r.name}`,
      quantity: 1,
      price: r.price,
      vatClassId: r.vat_class_id,
      revenueGroupId: r.revenue_group_id,
      projectServiceId: r.service_id,
      projectId: c.projectId,
      lineDate: c.invoiceDate,
      sourceType: 'installment',
      sourceId: r.id,
    }));
  },
};
