// One JSON object per line, for the commands whose records have optional fields.

/** JSON with absent (`undefined`) fields written as `null`, so every object of a kind has the same keys. */
export function toJsonLine(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) => (field === undefined ? null : field));
}
