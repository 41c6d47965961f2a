// Settings are handed down frozen, all the way: nothing below the config layer can change them.

/** Freeze `value` and every object it holds (arrays and RegExps included), in place. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const item of Object.values(value)) deepFreeze(item);
  return value;
}
