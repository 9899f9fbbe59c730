import { z } from 'zod';
import { moduleProcedure, router } from '../../trpc.js';
import { organization } from '../organization/organization.entity.js';
import { person } from '../person/person.entity.js';
import { compareRelations } from './compare-relations.js';
import { mergeRelation, type RelationKind } from './merge-relation.js';
import { compareInput, compareResult, mergeInput, mergeResult } from './merge-relation.schema.js';
import { ORGANIZATION_REFERENCES, PERSON_REFERENCES } from './relation-references.js';

const kinds: Record<'organization' | 'person', RelationKind> = {
  organization: { entity: organization, references: ORGANIZATION_REFERENCES },
  person: { entity: person, references: PERSON_REFERENCES },
};

const compareOutput = compareResult.extend({ token: z.string().optional() });

function mergeProcedures(kind: RelationKind) {
  return router({
    merge: moduleProcedure('crm', 'write')
      .input(mergeInput)
      .output(mergeResult)
      .mutation(({ ctx, input }) => mergeRelation(ctx, kind, input)),
    compare: moduleProcedure('crm', 'read')
      .input(compareInput)
      .output(compareOutput)
      .query(({ ctx, input }) => compareRelations(ctx, kind, input)),
  });
}

/** Merging relations: organizations into organizations, persons into persons. */
export const mergeRouter = router({
  organization: mergeProcedures(kinds.organization),
  person: mergeProcedures(kinds.person),
});
