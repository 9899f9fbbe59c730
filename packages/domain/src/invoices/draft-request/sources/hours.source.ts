import type { DraftSource } from './draft-source.js';

interface Row {
  project_service_id: string | null;
  service_name: string | null;
  hour_type_id: string | null;
  hour_type_label: string | null;
  hours: string;
  tariff: string;
  vat_class_id: string | null;
  revenue_group_id: string | null;
}

/**
 * Hours (time and expenses): approved, billable, not yet invoiced hours up to the
 * invoice date × their tariff, one line per service, hour type and tariff. The hours
 * are claimed and aggregated in one statement (UPDATE … WHERE invoice_id IS NULL …
 * RETURNING, summed in SQL): never loaded one by one, never billed twice.
 * Quantities are hours rounded half up to 4 decimals.
 * Only hours on services invoiced on hours (time and expenses) are billed as hours:
 * a fixed price or a subscription bills its own price, whatever was booked on it.
 */
export const hoursSource: DraftSource = {
  name: 'hours',
  async collect(c) {
    const rows = await c.sql.read<Row>(
      `WITH claimed AS (
         UPDATE hour_registration h SET invoice_id = $3
          WHERE h.environment_id = $1 AND h.project_id = $2 AND h.invoice_id IS NULL
            AND h.approval_status = 'approved' AND h.billable AND h.start_date <= $4::date
            AND EXISTS (SELECT 1 FROM project_service ps
                         WHERE ps.id = h.project_service_id AND ps.invoice_method = 'time_and_expenses')
         RETURNING h.project_service_id, h.hour_type_id, h.tariff, h.duration_minutes)
       SELECT c.project_service_id, s.name AS service_name, c.hour_type_id, ht.label AS hour_type_label,
              round(sum(c.duration_minutes) / 60.0, 4)::text AS hours, COALESCE(c.tariff, 0)::text AS tariff,
              COALESCE(ht.vat_class_id, s.vat_class_id) AS vat_class_id, s.revenue_group_id
         FROM claimed c
         LEFT JOIN project_service s ON s.id = c.project_service_id AND s.environment_id = $1
         LEFT JOIN hour_type ht ON ht.id = c.hour_type_id AND ht.environment_id = $1
        GROUP BY c.project_service_id, s.name, c.hour_type_id, ht.label, c.tariff, ht.vat_class_id, s.vat_class_id, s.revenue_group_id
        ORDER BY s.name, ht.label, c.tariff`,
      [c.projectId, c.invoiceId, c.invoiceDate],
    );
    return rows.map((r) => ({
      description: [r.service_name, r.hour_type_label].filter(Boolean).join(': ') || 'Hours',
      quantity: r.hours,
      price: r.tariff,
      vatClassId: r.vat_class_id,
      revenueGroupId: r.revenue_group_id,
      projectServiceId: r.project_service_id,
      projectId: c.projectId,
      lineDate: c.invoiceDate,
      // the hours themselves carry the invoice id: the line has no single source
      sourceType: null,
      sourceId: null,
    }));
  },
};
