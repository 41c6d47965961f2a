// Options of the base chain, validated once at the boundary.

import { OptionError, describeValue } from '../errors.js';
import { parseBase, type AbsoluteUri } from '../uri/index.js';

/**
 * - `rfc3986`: the whole RFC 3986 §5.1 chain, Content-Location (and Content-Base) included.
 * - `browser`: as browsers do — Content-Location and Content-Base play no part in the
 *   base (RFC 7231 and RFC 9110 dropped that role), and a `<base href>` naming a
 *   `data:` or `javascript:` URL is ignored (HTML, "set the frozen base URL").
 */
export const BASE_MODES = ['rfc3986', 'browser'] as const;

export type BaseMode = (typeof BASE_MODES)[number];

export interface BaseChainOptions {
  /**
   * Which chain to follow.
   * @default 'rfc3986'
   */
  readonly mode?: BaseMode;
  /**
   * RFC 3986 §5.1.4 default base: an absolute URI, used only when a response has
   * no retrieval URL (a file read from disk). A fragment on it is dropped.
   * @default undefined
   */
  readonly defaultBase?: string | undefined;
}

/** The defaults of every option. */
export const BASE_CHAIN_DEFAULTS = { mode: 'rfc3986', defaultBase: undefined } as const satisfies BaseChainOptions;

/** Options checked and parsed once. */
export interface ValidBaseChainOptions {
  readonly mode: BaseMode;
  readonly defaultBase: AbsoluteUri | undefined;
}

const validated = new WeakMap<object, ValidBaseChainOptions>();

const DEFAULTS: ValidBaseChainOptions = Object.freeze({ mode: BASE_CHAIN_DEFAULTS.mode, defaultBase: undefined });

/**
 * Check options once, at the API boundary: a bad option is a programming or
 * configuration error and throws `OptionError`. The result is remembered per
 * options object, so passing the same object for every response costs nothing.
 */
export function validateBaseChainOptions(options: BaseChainOptions | undefined): ValidBaseChainOptions {
  if (options === undefined) return DEFAULTS;
  if (typeof options !== 'object' || options === null) {
    throw new OptionError(`Expected \`options\` to be an object, got ${describeValue(options)}`);
  }
  const known = validated.get(options);
  if (known !== undefined) return known;
  const mode: unknown = options.mode === undefined ? BASE_CHAIN_DEFAULTS.mode : options.mode;
  if (!isBaseMode(mode)) {
    throw new OptionError(`Expected \`mode\` to be one of ${BASE_MODES.join(', ')}, got ${describeValue(mode)}`);
  }
  const defaultBaseText: unknown = options.defaultBase;
  let defaultBase: AbsoluteUri | undefined;
  if (defaultBaseText !== undefined) {
    const parsed = typeof defaultBaseText === 'string' ? parseBase(defaultBaseText) : undefined;
    if (parsed === undefined || !parsed.ok) {
      throw new OptionError(
        `Expected \`defaultBase\` to be an absolute URI (RFC 3986 §4.3), got ${describeValue(defaultBaseText)}` +
          (parsed === undefined ? '' : ` (${parsed.error.code} at index ${parsed.error.index})`),
      );
    }
    // RFC 3986 §5.1: a base has no fragment.
    defaultBase = parsed.value.fragment === undefined ? parsed.value : { ...parsed.value, fragment: undefined };
  }
  const result: ValidBaseChainOptions = Object.freeze({ mode, defaultBase });
  validated.set(options, result);
  return result;
}

export function isBaseMode(value: unknown): value is BaseMode {
  return typeof value === 'string' && (BASE_MODES as readonly string[]).includes(value);
}
