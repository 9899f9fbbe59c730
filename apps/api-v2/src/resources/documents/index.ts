import type { AnyV2Resource } from '../v2-resource.js';
import { documentTypeV2 } from './documenttype.js';

/** The documents module's v2 resources. */
export const documentsV2Resources: AnyV2Resource[] = [documentTypeV2];
