import type { DraftSource } from './draft-source.js';

/** The length of a subscription cycle (`subscription_cycle`, Month when none is set). */
export const CYCLE_INTERVAL: Record<string, string> = {
  month: '1 month',
  quarter: '3 months',
  half_year: '6 months',
  year: '1 year',
};

interface Row {
  service_id: string;
  name: string;
  quantity: string;
  price: string;
  vat_class_id: string | null;
  revenue_group_id: string | null;
  cycle_start: string;
  cycle_end: string;
}

/**
 * Subscription: one line per cycle that has begun by the invoice date (subscriptions are
 * billed in advance), from the service's start date (else the project's, else the day it
 * was made) up to its end date. A cycle is claimed by its line's source
 * ('subscription_cycle', `<service id>:<cycle start>`). At most 120 cycles per draft.
 */
export const subscriptionSource: DraftSource = {
  name: 'subscription_cycle',
  async collect(c) {
    const rows = await c.sql.read<Row>(
      `SELECT s.id AS service_id, s.name, COALESCE(s.amount, 1)::text AS quantity, s.price::text AS price,
              s.vat_class_id, s.revenue_group_id,
              to_char(g.start, 'YYYY-MM-DD') AS cycle_start,
              to_char(g.start + iv.len - interval '1 day', 'YYYY-MM-DD') AS cycle_end
         FROM project_service s
         JOIN project p ON p.id = s.project_id AND p.environment_id = $1
        CROSS JOIN LATERAL (SELECT (CASE COALESCE(s.subscription_cycle, 'month')
                              WHEN 'quarter' THEN interval '3 months' WHEN 'half_year' THEN interval '6 months'
                              WHEN 'year' THEN interval '1 year' ELSE interval '1 month' END) AS len) iv
        CROSS JOIN LATERAL (
          SELECT gs::date AS start
            FROM generate_series(COALESCE(s.start_date, p.start_date, s.created_at::date)::timestamp,
                                 LEAST($3::date, COALESCE(s.end_date, $3::date))::timestamp, iv.len) gs
           LIMIT 120) g
        WHERE s.environment_id = $1 AND s.project_id = $2 AND s.phase = 'execution'
          AND s.kind = 'invoiceable' AND s.invoice_method = 'subscription'
          AND s.price IS NOT NULL AND s.price * COALESCE(s.amount, 1) <> 0
          AND NOT EXISTS (SELECT 1 FROM invoice_line l WHERE l.environment_id = $1 AND l.source_type = 'subscription_cycle'
                             AND l.source_id = s.id || ':' || to_char(g.start, 'YYYY-MM-DD'))
        ORDER BY s.created_at, s.id, g.start`,
      [c.projectId, c.invoiceDate],
    );
    return rows.map((r) => ({
      description: `${r.name} (${r.cycle_start} to ${r.cycle_end})`,
      quantity: r.quantity,
      price: r.price,
      vatClassId: r.vat_class_id,
      revenueGroupId: r.revenue_group_id,
      projectServiceId: r.service_id,
      projectId: c.projectId,
      lineDate: new Date(`${r.cycle_start}T00:00:00.000Z`),
      sourceType: 'subscription_cycle',
      sourceId: `${r.service_id}:${r.cycle_start}`,
    }));
  },
};
