import type { DraftSource } from './draft-source.js';
import { fixedPriceSource } from './fixed-price.source.js';
import { hoursSource } from './hours.source.js';
import { installmentSource } from './installment.source.js';
import { purchaseSource } from './purchase.source.js';
import { subscriptionSource } from './subscription.source.js';

/** The sources an invoice is drafted from, in the order of its lines. */
export const DRAFT_SOURCES: DraftSource[] = [
  fixedPriceSource,
  installmentSource,
  subscriptionSource,
  hoursSource,
  purchaseSource,
];

export type { DraftContext, DraftSource } from './draft-source.js';
