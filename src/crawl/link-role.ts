// What the crawl does with each link it finds: follow it
// as a page, check it once as a resource a page uses, check it once as an external
// link, or only record it. Decided once per link, when it is admitted; the URL's
// role in the index (migration 006) is the highest role of the links that queued it.

import type { ResolvedReference } from '../base/index.js';
import type { LinkKind } from '../html/index.js';
import type { UrlRole } from '../store/index.js';
import type { ScopeTest } from './scope.js';

/**
 * What a reference is to the page that holds it:
 * - `follow`: its kind is followed (`follow` option: a, area, iframe, meta refresh by default);
 * - `resource`: something the page loads — the `resource` kind (img, srcset, script,
 *   source, video, audio, track, embed, object, poster, SVG image/use, CSS `url()`),
 *   an `<iframe>`/`<frame>` when frames are not followed, and a `<link>` (or `Link`
 *   header), whether its rel loads it (stylesheet, icon, preload, manifest …) or names
 *   another document (canonical, alternate, next, `rev=made` …): checked once and not
 *   read, as a link checker must report a broken one; not one that names an origin or
 *   an endpoint (`NOT_CHECKED_RELS`);
 * - `other`: recorded only (a form action, a cite, a preconnect).
 */
export type LinkUse = 'follow' | 'resource' | 'other';


/**
 * The rels of `<link>` whose href is an origin or an endpoint, not a document
 * (HTML §4.6.7; the Pingback and Webmention specifications): requesting it proves nothing.
 */
export const NOT_CHECKED_RELS: ReadonlySet<string> = new Set(['preconnect', 'dns-prefetch', 'pingback', 'webmention']);

/** What a reference of `kind` (with its `rel` tokens, on a `<link>`) is to its page. */
export function linkUseOf(kind: LinkKind, isFollowed: boolean, rel: readonly string[] | undefined): LinkUse {
  if (isFollowed) return 'follow';
  if (kind === 'resource' || kind === 'frame') return 'resource';
  if (kind === 'link') return rel !== undefined && rel.some((token) => NOT_CHECKED_RELS.has(token)) ? 'other' : 'resource';
  return 'other';
}

/** Whether the target is requested (`follow`: queued), and as what (`role`, kept when only recorded). */
export interface LinkDecision {
  readonly follow: boolean;
  readonly role: UrlRole;
}

export interface LinkRolesOptions {
  readonly scope: ScopeTest;
  readonly maxDepth: number;
  readonly checkResources: boolean;
  readonly checkExternal: boolean;
}

const decision = (follow: boolean, role: UrlRole): LinkDecision => Object.freeze({ follow, role });
const PAGE = decision(true, 'page');
const PAGE_RECORDED = decision(false, 'page');
const RESOURCE = decision(true, 'resource');
const RESOURCE_RECORDED = decision(false, 'resource');
const EXTERNAL = decision(true, 'external');
const EXTERNAL_RECORDED = decision(false, 'external');

/**
 * The decisions of one crawl:
 * - in scope, followed: a `page`, up to `maxDepth`;
 * - in scope, a resource: a `resource` when `checkResources` (whatever its depth: it
 *   belongs to a page the crawl read);
 * - out of scope (http/https, not private), followed or a resource: `external` when
 *   `checkExternal` (and `checkResources`, for a resource), unless `include`/`exclude`
 *   refuse it — the patterns mean "never request";
 * - everything else is recorded, never requested: other schemes, private addresses
 *   (unless `allowPrivate`), URLs the patterns refuse, links deeper than `maxDepth`.
 */
export class LinkRoles {
  readonly #o: LinkRolesOptions;

  constructor(options: LinkRolesOptions) {
    this.#o = options;
  }

  /**
   * The decision for `link`, found on a page whose links are at `depth`;
   * `isExternalChecked` false records the page's external links without checking them.
   */
  decide(link: ResolvedReference, use: LinkUse, depth: number, isExternalChecked = true): LinkDecision {
    const o = this.#o;
    const verdict = o.scope.checkLink(link);
    if (verdict === undefined) {
      if (use === 'follow') return depth <= o.maxDepth ? PAGE : PAGE_RECORDED;
      if (use === 'resource') return o.checkResources ? RESOURCE : RESOURCE_RECORDED;
      return PAGE_RECORDED;
    }
    if (verdict.reason === 'include' || verdict.reason === 'exclude') return use === 'resource' ? RESOURCE_RECORDED : PAGE_RECORDED;
    if (verdict.reason !== 'scope') return EXTERNAL_RECORDED;
    const isChecked = o.checkExternal && isExternalChecked && (use === 'follow' || (use === 'resource' && o.checkResources));
    return isChecked && o.scope.checkPatterns(link) === undefined ? EXTERNAL : EXTERNAL_RECORDED;
  }
}
