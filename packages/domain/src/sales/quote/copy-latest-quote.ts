import { recordChange, type SqlWriteContext } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import { insertRows } from '../sql-writes.js';
import { quote } from './quote.entity.js';
import { GROUP_COLUMNS, LINE_COLUMNS, lockQuoteNumbers, nextQuoteNumberSql } from './quote.write.js';

interface LatestQuote {
  totals: { groups?: Record<string, unknown>; grandTotals?: unknown };
  groups: {
    id: string;
    name: string;
    type: string;
    position: number;
    lines: {
      name: string;
      quantity: string;
      price: string;
      vatClassId: string | null;
      vatPercentage: string;
      chosen: boolean;
      position: number;
    }[];
  }[];
}

/**
 * The sale's latest quote with its groups and lines, read after its row lock (the lock its
 * edits and its deletion take): the copy is of one version of the quote, its totals those
 * of its lines. A quote deleted while this waited is passed over for the next latest.
 */
async function lockedLatestQuote(w: SqlWriteContext, saleId: string): Promise<(LatestQuote & { id: string }) | null> {
  for (let turn = 0; turn < 10; turn++) {
    const [candidate] = await w.sql.read<{ id: string }>(
      `SELECT id FROM quote WHERE environment_id = $1 AND sale_id = $2 ORDER BY created_at DESC, id DESC LIMIT 1`,
      [saleId],
    );
    if (!candidate) return null;
    if (!(await w.sql.lockForUpdate('quote', candidate.id))) continue;
    // a statement after the lock: it sees the quote's groups and lines as its last writer left them
    const [found] = await w.sql.read<LatestQuote>(
      `SELECT q.totals,
              coalesce((SELECT json_agg(json_build_object('id', g.id, 'name', g.name, 'type', g.type, 'position', g.position,
                          'lines', coalesce((SELECT json_agg(json_build_object('name', l.name, 'quantity', l.quantity::text,
                                               'price', l.price::text, 'vatClassId', l.vat_class_id,
                                               'vatPercentage', l.vat_percentage::text, 'chosen', l.chosen,
                                               'position', l.position) ORDER BY l.position, l.id)
                                             FROM quote_line l WHERE l.environment_id = $1 AND l.group_id = g.id), '[]'))
                                 ORDER BY g.position, g.id)
                          FROM quote_service_group g WHERE g.environment_id = $1 AND g.quote_id = q.id), '[]') AS groups
         FROM quote q WHERE q.environment_id = $1 AND q.id = $2`,
      [candidate.id],
    );
    if (found) return { ...found, id: candidate.id };
  }
  return null;
}

/** duplicate with copy_latest_quote (2025-01): the copy gets the latest quote, with its groups and lines, as a draft */
export async function copyLatestQuote(w: SqlWriteContext, from: string, to: string): Promise<void> {
  const latest = await lockedLatestQuote(w, from);
  if (!latest) return;
  const { sql, now } = w;
  const id = newEntityId('quote');
  const groupTotals: Record<string, unknown> = {};
  const groups: unknown[][] = [];
  const lines: unknown[][] = [];
  for (const g of latest.groups) {
    const groupId = newEntityId('quoteservicegroup');
    groupTotals[groupId] = latest.totals.groups?.[g.id];
    groups.push([groupId, id, g.name, g.type, g.position, now, now]);
    for (const l of g.lines) {
      // the copy's services are the sale's own; lines keep their values, not the original sale's services
      lines.push([
        newEntityId('quoteline'),
        id,
        groupId,
        null,
        l.name,
        l.quantity,
        l.price,
        l.vatClassId,
        l.vatPercentage,
        l.chosen,
        l.position,
        now,
        now,
      ]);
    }
  }
  const prefix = await lockQuoteNumbers(w);
  // the quote's own columns are copied by PostgreSQL from the locked row, as stored
  await sql.queue(
    `INSERT INTO quote (environment_id, id, sale_id, quote_template_id, quote_status_id, quote_number, quote_date,
                        quote_subject, customer_reference, json, send_type, valid_days, is_blocked, sent_at, project_id,
                        total_excl, total_vat, total_incl, totals, created_at, updated_at)
     SELECT $1, $3, $4, q.quote_template_id,
            (SELECT s.id FROM quote_status s WHERE s.environment_id = $1 AND s.key = 'draft'),
            ${nextQuoteNumberSql(5)}, q.quote_date, q.quote_subject, q.customer_reference, q.json, q.send_type,
            q.valid_days, q.is_blocked, NULL, NULL, q.total_excl, q.total_vat, q.total_incl, $6::jsonb,
            $7::timestamptz, $7::timestamptz
       FROM quote q WHERE q.environment_id = $1 AND q.id = $2`,
    [latest.id, id, to, prefix, JSON.stringify({ groups: groupTotals, grandTotals: latest.totals.grandTotals ?? {} }), now],
  );
  await insertRows(sql, 'quote_service_group', GROUP_COLUMNS, groups);
  await insertRows(sql, 'quote_line', LINE_COLUMNS, lines);
  await recordChange(w, quote, id, 'created', false);
}
