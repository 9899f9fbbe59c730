import { UnavailableError } from '../shared/errors.js';
import type { FileStorage } from '../shared/storage.js';
import type { UserContext } from '../trpc.js';

export function requireStorage(ctx: UserContext): FileStorage {
  const storage = ctx.services?.storage;
  if (!storage) throw new UnavailableError('file storage is not configured');
  return storage;
}
