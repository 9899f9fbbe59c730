/** v2 renders date-times as `YYYY-MM-DD HH:MM:SS` (UTC). */
export function v2DateTime(d: Date | string | null | undefined): string | null {
  if (!d) return null;
  const iso = typeof d === 'string' ? new Date(d).toISOString() : d.toISOString();
  // toISOString is always YYYY-MM-DDTHH:MM:SS.sssZ
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** v2 dates as `YYYY-MM-DD`. */
export function v2Date(d: Date | null | undefined): string | null {
  if (!d) return null;
  return d.toISOString().slice(0, 10);
}

/** v3 renders date-times as ISO 8601 with milliseconds and Z. */
export function v3DateTime(d: Date | null | undefined): string | null {
  return d ? d.toISOString() : null;
}
