import type { EntityCreate } from '../../shared/entity/index.js';
import { BusinessRuleError, NotFoundError } from '../../shared/errors.js';
import { newEntityId, uuidv7 } from '../../shared/ids.js';
import type { DuplicateProjectServiceInput } from './project-service.schema.js';

/** A copy of a service on the same project with a new UUID v7 id, its lines and open installments; never invoiced. */
export const duplicateProjectService: EntityCreate<DuplicateProjectServiceInput & { sourceId: string }> = {
  async run({ sql, now }, input) {
    const id = input.sourceId;
    // one read: whether the project is closed, and the ids of the parts to copy (in their order)
    const [source] = await sql.read<{ closed: boolean; hourLines: string[]; costLines: string[]; installments: string[] }>(
      `SELECT COALESCE(ps.is_closed, false) AS closed,
              ARRAY(SELECT l.id FROM project_service_hour_type l
                     WHERE l.environment_id = $1 AND l.project_service_id = s.id ORDER BY l.position, l.id) AS "hourLines",
              ARRAY(SELECT l.id FROM project_service_cost_type l
                     WHERE l.environment_id = $1 AND l.project_service_id = s.id ORDER BY l.position, l.id) AS "costLines",
              ARRAY(SELECT i.id FROM project_service_installment i
                     WHERE i.environment_id = $1 AND i.project_service_id = s.id ORDER BY i.position, i.id) AS installments
         FROM project_service s
         JOIN project p ON p.environment_id = $1 AND p.id = s.project_id
         LEFT JOIN project_status ps ON ps.environment_id = $1 AND ps.id = p.project_status_id
        WHERE s.environment_id = $1 AND s.id = $2`,
      [id],
    );
    if (!source) throw new NotFoundError('projectservice', id);
    if (source.closed) throw new BusinessRuleError(`the project of service ${id} is closed; no services can be added`);
    const copyId = uuidv7(now.getTime());
    // the copies are made by PostgreSQL from the stored rows (values exact), queued with the COMMIT
    await sql.queue(
      `INSERT INTO project_service (environment_id, id, project_id, default_service_id, kind, phase, name, explanation,
                                    invoice_method, subscription_cycle, amount, price, track_hours, track_cost, start_date,
                                    end_date, write_hours_start_date, write_hours_end_date, expected_invoice_date,
                                    vat_class_id, revenue_group_id, use_in_resource_planner, invoice_in_installments,
                                    status, service_number, created_at, updated_at)
       SELECT $1, $3, project_id, default_service_id, kind, phase, COALESCE($4::text, name), explanation,
              invoice_method, subscription_cycle, amount, price, track_hours, track_cost, start_date,
              end_date, write_hours_start_date, write_hours_end_date, expected_invoice_date,
              vat_class_id, revenue_group_id, use_in_resource_planner, invoice_in_installments,
              'open', service_number, $5::timestamptz, $5::timestamptz
         FROM project_service WHERE environment_id = $1 AND id = $2`,
      [id, copyId, input.name ?? null, now],
    );
    const copies = (ids: string[], prefix: string) => [ids, ids.map(() => newEntityId(prefix))];
    if (source.hourLines.length) {
      await sql.queue(
        `INSERT INTO project_service_hour_type (environment_id, id, project_service_id, hour_type_id, budgeted_amount, tariff,
                                                billable, position)
         SELECT $1, n.id, $2, l.hour_type_id, l.budgeted_amount, l.tariff, l.billable, l.position
           FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS n(source, id, ord)
           JOIN project_service_hour_type l ON l.environment_id = $1 AND l.id = n.source
          ORDER BY n.ord`,
        [copyId, ...copies(source.hourLines, 'projecthourtype')],
      );
    }
    if (source.costLines.length) {
      await sql.queue(
        `INSERT INTO project_service_cost_type (environment_id, id, project_service_id, cost_type_id, budgeted_amount, tariff,
                                                purchase_tariff, purchase_margin, billable, position)
         SELECT $1, n.id, $2, l.cost_type_id, l.budgeted_amount, l.tariff, l.purchase_tariff, l.purchase_margin, l.billable,
                l.position
           FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS n(source, id, ord)
           JOIN project_service_cost_type l ON l.environment_id = $1 AND l.id = n.source
          ORDER BY n.ord`,
        [copyId, ...copies(source.costLines, 'projectcosttype')],
      );
    }
    if (source.installments.length) {
      // open again, on no invoice
      await sql.queue(
        `INSERT INTO project_service_installment (environment_id, id, project_service_id, name, percentage, price, position,
                                                  expiration_date, status, invoice_id)
         SELECT $1, n.id, $2, i.name, i.percentage, i.price, i.position, i.expiration_date, 'open', NULL
           FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS n(source, id, ord)
           JOIN project_service_installment i ON i.environment_id = $1 AND i.id = n.source
          ORDER BY n.ord`,
        [copyId, ...copies(source.installments, 'installment')],
      );
    }
    return copyId;
  },
};
