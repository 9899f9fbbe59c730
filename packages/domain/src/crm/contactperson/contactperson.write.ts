import type { TenantReader } from '@bo/db';
import { newEntityId } from '../../shared/ids.js';

export interface ContactLinkValues {
  workFunction?: string | null;
  workEmail?: string | null;
  workPhone?: string | null;
  workMobile?: string | null;
}

const LINK_COLUMNS = {
  workFunction: 'work_function',
  workEmail: 'work_email',
  workPhone: 'work_phone',
  workMobile: 'work_mobile',
} as const satisfies Record<keyof ContactLinkValues, string>;

/**
 * Links a person to an organization as a contact, or updates the existing link: one statement,
 * queued on the write's transaction. Values left out keep theirs on an existing link.
 * Both sides write links (an organization's contacts and a person's): one operation, one place.
 */
export async function upsertContactLink(
  sql: TenantReader,
  link: { organizationId: string; personId: string } & ContactLinkValues,
  now: Date,
): Promise<void> {
  const named = (Object.keys(LINK_COLUMNS) as (keyof ContactLinkValues)[]).filter((k) => link[k] !== undefined);
  const params: unknown[] = [newEntityId('contactperson'), link.organizationId, link.personId, now];
  const columns = named.map((k) => {
    params.push(link[k]);
    return LINK_COLUMNS[k];
  });
  const values = columns.map((_, n) => `$${n + 6}`);
  const sets = [...columns.map((c) => `${c} = EXCLUDED.${c}`), 'updated_at = EXCLUDED.updated_at'];
  await sql.queue(
    `INSERT INTO contact_person (environment_id, id, organization_id, person_id, updated_at${columns.map((c) => `, ${c}`).join('')})
     VALUES ($1, $2, $3, $4, $5${values.map((v) => `, ${v}`).join('')})
     ON CONFLICT (organization_id, person_id) DO UPDATE SET ${sets.join(', ')}
       WHERE contact_person.environment_id = $1`,
    params,
  );
}
