import { hash, verify } from '@node-rs/argon2';
import { ValidationError } from '../shared/errors.js';

/**
 * Passwords of the settings pages: Argon2id (memory-hard; @node-rs/argon2) at
 * OWASP's recommended minimum of 19 MiB, 2 passes, 1 lane. The PHC string
 * carries its parameters, so they can be raised later without a migration.
 */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 1024;

export function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw new ValidationError([
      { path: 'password', message: `a password has ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`, code: 'invalid_password' },
    ]);
  }
}

export function hashPassword(password: string): Promise<string> {
  checkPassword(password);
  return hash(password, OPTIONS);
}

// a hash of nothing anyone knows: verified against when the user is unknown, so that
// an unknown e-mail takes as long to refuse as a wrong password
let decoy: Promise<string> | null = null;

/** Whether `password` is the one of `stored` (null: no user or no password; the same work is done). */
export async function passwordMatches(password: string, stored: string | null): Promise<boolean> {
  if (password.length > PASSWORD_MAX) return false;
  if (!stored) {
    decoy ??= hash(`decoy ${Math.random()}`, OPTIONS);
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
