const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in paths are checked before they reach Postgres: a malformed one is "not found", never a 500. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
