import { SCOPED_ENVIRONMENT } from '@bo/db';
import { z } from 'zod';
import type { EntityCreate, EntityUpdate } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';

const text = z.string().max(1_000_000).nullable().optional();
const fields = { type: z.string().max(255).nullable().optional(), html: text, json: text, isBlocked: z.boolean().optional() };

export const createQuoteTemplateInput = z.object({ name: z.string().trim().min(1).max(255), ...fields });
export const updateQuoteTemplateInput = z.object({ name: z.string().trim().min(1).max(255).optional(), ...fields });
export type CreateQuoteTemplateInput = z.infer<typeof createQuoteTemplateInput>;
export type UpdateQuoteTemplateInput = z.infer<typeof updateQuoteTemplateInput>;

export const createQuoteTemplate: EntityCreate<CreateQuoteTemplateInput> = {
  async run({ tx, now }, input) {
    const id = newEntityId('quotetemplate');
    await tx.quoteTemplate.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        name: input.name,
        type: input.type ?? null,
        html: input.html ?? null,
        json: input.json ?? null,
        isBlocked: input.isBlocked ?? false,
        createdAt: now,
        updatedAt: now,
      },
    });
    return id;
  },
};

export const updateQuoteTemplate: EntityUpdate<UpdateQuoteTemplateInput> = {
  async run({ tx, now }, id, input) {
    await tx.quoteTemplate.update({
      where: { id },
      data: {
        name: input.name,
        type: input.type,
        html: input.html,
        json: input.json,
        isBlocked: input.isBlocked,
        updatedAt: now,
      },
    });
  },
};
