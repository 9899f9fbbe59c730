import type { AnyV2Resource } from '../v2-resource.js';
import { documentResourcesV2 } from './documents.js';

/** The documents module's v2 resources (invoices/document among them). */
export const documentsV2Resources: AnyV2Resource[] = documentResourcesV2;
