// The settings of how a crawl's requests travel: the credentials they carry (header
// fields, a seed's userinfo, cookies), the proxy they go through, the TLS trust they
// verify with, and HTTP/2. Part of the crawl's settings (crawl-settings.ts), kept apart
// because they describe the transport rather than the crawl; httpOptionsOf and
// credentialOptionsOf (http-options.ts) turn them into the HTTP clients' options.

import * as z from 'zod';
import { SETTING_META, headerForLines, headerLines, isOn, proxySetting } from './setting-kinds.js';

export const TRANSPORT_SETTINGS = {
  // Credentials: header fields and cookies (a seed's userinfo is Basic auth, taken from the seeds themselves).
  /**
   * `Name: value` header fields sent on every request to the seeds' origins (their
   * robots.txt included), never to another origin: a redirect or a link elsewhere
   * gets none. A value may name environment variables, `${TOKEN}`, read when the
   * crawl starts (an unset one is an error). A field replaces the crawler's own of
   * that name (`User-Agent`, `Accept`); `Host`, `Content-Length`, `Connection`,
   * `Transfer-Encoding`, `Accept-Encoding`, `If-*`, `Range` and the like are refused.
   * Only the names are kept in the run's settings.
   * @default []
   */
  header: headerLines.default(() => []).register(SETTING_META, {
    argument: 'HEADER',
    defaultText: 'none',
    description: 'a header sent to the seeds\' origins only (robots.txt included; never to other hosts or redirects elsewhere); `${VAR}` reads an environment variable; repeatable; only its name is stored',
  }),
  /**
   * Header fields for one other origin: `ORIGIN Name: value` (in a config file, also
   * an object of origin → list of `Name: value`), sent to that origin only; `${VAR}`
   * as in `header`. Only the names are kept in the run's settings.
   * @default []
   */
  headerFor: headerForLines.default(() => []).register(SETTING_META, {
    argument: 'ORIGIN_HEADER',
    defaultText: 'none',
    description: 'a header for one origin (`https://cdn.example.com X-Key: ${CDN_KEY}`, one argument), sent to it only; repeatable; only its name is stored',
  }),
  /**
   * A cookies.txt (Netscape format, as curl `-c` and wget `--save-cookies` write it)
   * read when the crawl starts: each cookie is sent by its own domain, path, secure
   * and expiry rules (RFC 6265), to no other host. Its path is kept in the run's
   * settings, never a cookie. `''`: none.
   * @default ''
   */
  cookieJar: z.string({ error: 'Expected a path' }).default('').register(SETTING_META, {
    argument: 'FILE',
    defaultText: 'none',
    description: 'send the cookies of this cookies.txt (Netscape format, as curl and wget write it) by their own domain and path rules',
  }),
  /**
   * Keep the cookies responses set (`Set-Cookie`, redirects included) for the rest of
   * the run, sent back by their own rules: for a site that sets a session on its
   * first page or its login redirect. Never kept past the run.
   * @default false
   */
  keepCookies: isOn.default(false).register(SETTING_META, {
    description: 'keep the cookies the site sets (`Set-Cookie`, redirects included) for the rest of the run',
  }),
  // Proxies and TLS.
  /**
   * The proxy every request goes through: an `http:` or `https:` URL (credentials in
   * its userinfo go to the proxy only, never printed or stored); `none`: no proxy,
   * whatever the environment says; empty: `HTTPS_PROXY` / `HTTP_PROXY` / `NO_PROXY`
   * (and their lower-case names), as curl reads them. `NO_PROXY` applies to a proxy
   * set here too. The run records the proxy's host and port only.
   * @default '' (the environment's)
   */
  proxy: proxySetting.default('').register(SETTING_META, {
    argument: 'URL',
    defaultText: '`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`',
    description: 'send every request through this proxy (`http://user:pw@proxy:3128`: the credentials go to the proxy only); `--no-proxy` or `none`: connect directly',
    negation: 'none',
  }),
  /**
   * A PEM file of certificates trusted as roots on top of Node's (its bundled roots
   * and `NODE_EXTRA_CA_CERTS`): the CA of a staging site. Read when the crawl starts.
   * @default '' (none)
   */
  caFile: z.string({ error: 'Expected a path' }).default('').register(SETTING_META, {
    argument: 'PATH',
    defaultText: 'none',
    description: "trust the certificates of this PEM file as roots too (a staging site's own CA), beside Node's and `NODE_EXTRA_CA_CERTS`",
  }),
  /**
   * Do not verify TLS certificates: an expired, self-signed or wrongly named one is
   * accepted. Warned on every run, recorded in the run's settings and its summary.
   * @default false
   */
  insecure: isOn.default(false).register(SETTING_META, {
    description: 'do not verify TLS certificates (a test site only): warned on every run, recorded in the run',
  }),
  // HTTP/2.
  /**
   * Offer HTTP/2 by ALPN on `https:` (RFC 9113 §3.2), to the pages, links and
   * robots.txt alike: a server that chooses it gets each host's requests as streams of
   * one connection; others, and `http:`, get HTTP/1.1. Each fetch row records the
   * protocol its response came over (`explain` shows it). `--no-http2`: HTTP/1.1 only.
   * @default true
   */
  http2: isOn.default(true).register(SETTING_META, {
    description: 'offer HTTP/2 on https (ALPN); a server that does not choose it, and http:, get HTTP/1.1; `--no-http2`: HTTP/1.1 only',
  }),
} as const;
