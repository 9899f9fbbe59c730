import { ValidationError } from '../shared/errors.js';
import { checkTarget } from './target-policy.js';

/** A subscription URL must resolve to a public address (unless private targets are allowed). */
export async function assertTargetAllowed(url: string, allowPrivate: boolean): Promise<void> {
  const check = await checkTarget(new URL(url), allowPrivate);
  if (!check.ok) throw new ValidationError([{ path: 'url', message: check.reason, code: 'target_refused' }]);
}
