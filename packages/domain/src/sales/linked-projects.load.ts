import type { Db } from '../shared/resources/definition.js';

export interface LinkedProjectRow {
  sale_id: string;
  id: string;
  name: string;
  project_number: string | null;
  created_at: Date;
  phase: string;
  status_id: string | null;
  status_label: string | null;
  status_color: string | null;
  has_services: boolean;
  has_acquisition_service: boolean;
}

/**
 * The linked projects of a page of sales in one query, whatever the page size.
 * Joining the project drops links to projects deleted since (there is no
 * foreign key to them); the service flags are EXISTS on project_service.
 */
export async function loadLinkedProjects(
  db: Db,
  environmentId: string,
  saleIds: string[],
): Promise<Map<string, LinkedProjectRow[]>> {
  const out = new Map<string, LinkedProjectRow[]>();
  if (saleIds.length === 0) return out;
  const rows = await db.$queryRawUnsafe<LinkedProjectRow[]>(
    `SELECT sp.sale_id, p.id, p.name, p.project_number, p.created_at, p.phase,
            st.id AS status_id, st.label AS status_label, st.color AS status_color,
            EXISTS (SELECT 1 FROM project_service s
                     WHERE s.environment_id = $1 AND s.project_id = p.id) AS has_services,
            EXISTS (SELECT 1 FROM project_service s
                     WHERE s.environment_id = $1 AND s.project_id = p.id AND s.kind = 'acquisition') AS has_acquisition_service
       FROM sale_project sp
       JOIN project p ON p.id = sp.project_id AND p.environment_id = $1
       LEFT JOIN project_status st ON st.id = p.project_status_id AND st.environment_id = $1
      WHERE sp.environment_id = $1 AND sp.sale_id = ANY($2::text[])
      ORDER BY sp.created_at, p.created_at, p.id`,
    environmentId,
    saleIds,
  );
  for (const r of rows) {
    const list = out.get(r.sale_id) ?? [];
    list.push(r);
    out.set(r.sale_id, list);
  }
  return out;
}
