import type { ScopedClient } from '@bo/db';

/**
 * Reference data every new environment starts with (relation types, countries, …).
 * Each module adds its seeder in its own file; create-environment runs them all.
 */
export type EnvironmentSeeder = (db: ScopedClient) => Promise<void>;
