import { z } from 'zod';
import type { EntityCreate, EntityUpdate } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';

const text = z.string().max(1_000_000).nullable().optional();
const fields = { type: z.string().max(255).nullable().optional(), html: text, json: text, isBlocked: z.boolean().optional() };

export const createQuoteTemplateInput = z.object({ name: z.string().trim().min(1).max(255), ...fields });
export const updateQuoteTemplateInput = z.object({ name: z.string().trim().min(1).max(255).optional(), ...fields });
export type CreateQuoteTemplateInput = z.infer<typeof createQuoteTemplateInput>;
export type UpdateQuoteTemplateInput = z.infer<typeof updateQuoteTemplateInput>;

/** the template's columns named by a write (left out: undefined, the column keeps its value or default) */
const templateColumns = (input: UpdateQuoteTemplateInput) => ({
  name: input.name,
  type: input.type,
  html: input.html,
  json: input.json,
  is_blocked: input.isBlocked,
});

export const createQuoteTemplate: EntityCreate<CreateQuoteTemplateInput> = {
  // one INSERT queued with the event: one round trip
  async run({ sql, now }, input) {
    const id = newEntityId('quotetemplate');
    await sql.insert('quote_template', { ...templateColumns(input), id, created_at: now, updated_at: now });
    return id;
  },
};

export const updateQuoteTemplate: EntityUpdate<UpdateQuoteTemplateInput> = {
  async run({ sql, now }, id, input) {
    await sql.update('quote_template', id, { ...templateColumns(input), updated_at: now });
  },
};
