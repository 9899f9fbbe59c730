/**
 * Figures the process's metrics read at a scrape (@bo/runtime metrics.ts) that only code of this
 * package knows. Setting one costs a Map write; nothing here depends on a metrics library.
 */

/** replication lag per replica (seconds), as the read routing last measured it */
const replicaLags = new Map<string, number>();

/**
 * The lag of a read replica, in seconds, as last measured (the read routing sets it when it
 * checks a replica); null forgets the replica (removed, or its lag unknown). No replica: no figure.
 */
export function setReplicaLag(replica: string, seconds: number | null): void {
  if (seconds === null) replicaLags.delete(replica);
  else replicaLags.set(replica, seconds);
}

/** Every replica's last measured lag, for the metrics. */
export function replicaLagSeconds(): ReadonlyMap<string, number> {
  return replicaLags;
}
