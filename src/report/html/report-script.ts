// The report's one script, inlined into the page: it reads the embedded JSON once and
// turns the sections into tabs, each rendered the first time it is shown; tables show
// a page of rows at a time (filters, then First/Previous/Next/Last), so a crawl of
// thousands of pages opens at once. Plain ES2020 for the browser, kept as text: every
// value from the data reaches the page through textContent or an attribute, never
// through innerHTML.

import { GRAPH_SCRIPT } from './graph-script.js';

export const REPORT_SCRIPT = String.raw`
(() => {
  'use strict';
  const PAGE_SIZE = 100;
  const LIST_LIMIT = 50;
  const LINK_LIMIT = 1000;
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const byId = (id) => document.getElementById(id);
  const CLASSES = data.classes;
  /** Broken first, then redirects, then what was not checked, then the healthy. */
  const CLASS_ORDER = { '4xx': 0, '5xx': 1, error: 2, '3xx': 3, 'not checked': 4, '2xx': 5 };
  const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 };

  function el(tag, attributes, ...children) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === undefined || value === null) continue;
      if (name === 'class') element.className = value;
      else element.setAttribute(name, String(value));
    }
    for (const child of children) {
      if (child === undefined || child === null) continue;
      element.append(child instanceof Node ? child : String(child));
    }
    return element;
  }

  function pages(count) {
    return count + (count === 1 ? ' page' : ' pages');
  }

  // ---- URLs -------------------------------------------------------------------
  const hosts = data.hosts.map(([name, isExternal]) => ({ name, isExternal: isExternal === 1 }));
  const urls = [];
  const nodes = new Map();
  const idOfKey = new Map();
  for (const [id, key, state, depth, aliasOf, label, cls, host, inPages, firstFrom, firstHref, forms, external] of data.urls) {
    const node = { id, key, state, depth, aliasOf, label, cls, host, inPages, firstFrom, firstHref, forms, isExternal: external === 1, out: [], in: [] };
    urls.push(node);
    nodes.set(id, node);
    idOfKey.set(key, id);
  }
  // Out of the crawl's scope, as the index's external_link view says (the external role).
  const isExternal = (node) => node.isExternal;
  const classOf = (node) => CLASSES[node.cls];

  function pageLink(key) {
    const id = idOfKey.get(key);
    return id === undefined ? el('span', { class: 'url' }, key) : el('a', { class: 'url', href: '#page=' + id }, key);
  }

  function statusBadge(node) {
    return el('span', { class: 'status status-' + classOf(node).replace(' ', '-'), title: classOf(node) }, node.label);
  }

  // ---- paged tables -------------------------------------------------------------
  function pagedTable(prefix, noun, renderRow) {
    const body = byId(prefix + '-rows');
    const shown = byId(prefix + '-shown');
    const pageText = byId(prefix + '-page');
    const buttons = {};
    let rows = [];
    let page = 0;
    const pageCount = () => Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
    function draw() {
      page = Math.min(Math.max(page, 0), pageCount() - 1);
      const first = page * PAGE_SIZE;
      const slice = rows.slice(first, first + PAGE_SIZE);
      body.replaceChildren(...slice.map(renderRow));
      pageText.textContent = rows.length === 0 ? 'no rows' : 'page ' + (page + 1) + ' of ' + pageCount() + ', rows ' + (first + 1) + '–' + (first + slice.length);
      buttons.first.disabled = buttons.prev.disabled = page === 0;
      buttons.next.disabled = buttons.last.disabled = page >= pageCount() - 1;
    }
    const moves = { first: () => 0, prev: () => page - 1, next: () => page + 1, last: () => pageCount() - 1 };
    for (const [name, move] of Object.entries(moves)) {
      buttons[name] = byId(prefix + '-' + name);
      buttons[name].addEventListener('click', () => {
        page = move();
        draw();
      });
    }
    return {
      show(matching, total) {
        rows = matching;
        page = 0;
        shown.textContent = matching.length + ' of ' + total + ' ' + noun;
        draw();
      },
    };
  }

  function fillSelect(select, entries) {
    for (const [value, label] of entries) select.append(el('option', { value }, label));
  }

  /** Values with how often each occurs, the most frequent first. */
  function tally(values) {
    const counts = new Map();
    for (const value of values) counts.set(value, (counts.get(value) || 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  }

  // ---- the all-links and external tabs -----------------------------------------
  function urlRow(node) {
    const from = node.firstFrom === null ? undefined : nodes.get(node.firstFrom);
    return el(
      'tr',
      {},
      el('td', {}, el('a', { class: 'url', href: '#page=' + node.id }, node.key)),
      el('td', {}, statusBadge(node)),
      el('td', {}, node.host < 0 ? '' : hosts[node.host].name),
      el('td', { class: 'number' }, node.inPages),
      el('td', {}, from ? el('a', { class: 'url', href: '#page=' + from.id }, from.key) : el('span', { class: 'muted' }, 'seed'), from && node.firstHref !== null ? el('div', {}, el('code', {}, node.firstHref)) : null),
    );
  }

  function urlTab(prefix, noun, pool) {
    pool.sort((a, b) => CLASS_ORDER[classOf(a)] - CLASS_ORDER[classOf(b)] || b.inPages - a.inPages || a.id - b.id);
    const table = pagedTable(prefix, noun, urlRow);
    const classSelect = byId(prefix + '-class');
    const hostSelect = byId(prefix + '-host');
    const textInput = byId(prefix + '-text');
    fillSelect(hostSelect, tally(pool.filter((node) => node.host >= 0).map((node) => hosts[node.host].name)).map(([name, n]) => [name, name + ' (' + n + ')']));
    for (const option of classSelect.options) {
      if (option.value === '') continue;
      const n = pool.filter((node) => classOf(node) === option.value).length;
      option.textContent = option.value + ' (' + n + ')';
    }
    function render() {
      const statusClass = classSelect.value;
      const host = hostSelect.value;
      const text = textInput.value.trim().toLowerCase();
      const matching = pool.filter(
        (node) =>
          (statusClass === '' || classOf(node) === statusClass) &&
          (host === '' || (node.host >= 0 && hosts[node.host].name === host)) &&
          (text === '' || node.key.toLowerCase().includes(text) || (node.firstFrom !== null && (nodes.get(node.firstFrom)?.key || '').toLowerCase().includes(text))),
      );
      table.show(matching, pool.length);
    }
    for (const input of [classSelect, hostSelect, textInput]) input.addEventListener('input', render);
    render();
  }

  // ---- findings -------------------------------------------------------------------
  const findings = data.findings.map(([severity, code, page, rawHref, target, message, detail, line], order) => ({ severity, code, page, rawHref, target, message, detail, line, order }));
  findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.order - b.order);
  let haystacks;

  function findingRow(finding) {
    return el(
      'tr',
      { class: 'severity-' + finding.severity },
      el('td', {}, el('span', { class: 'badge badge-' + finding.severity }, finding.severity)),
      el('td', {}, el('code', {}, finding.code)),
      el('td', {}, finding.page === null ? 'site' : pageLink(finding.page)),
      el('td', {}, finding.rawHref === null ? '' : el('code', {}, finding.rawHref)),
      el('td', { class: 'number' }, finding.line === null ? '' : finding.line),
      el('td', {}, finding.message, finding.detail ? el('div', { class: 'detail' }, finding.detail) : null),
    );
  }

  function findingsTab() {
    const table = pagedTable('finding', 'findings', findingRow);
    fillSelect(byId('finding-code'), tally(findings.map((finding) => finding.code)).sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([code, n]) => [code, code + ' (' + n + ')']));
    function render() {
      const severity = byId('finding-severity').value;
      const code = byId('finding-code').value;
      const text = byId('finding-text').value.trim().toLowerCase();
      if (text !== '' && haystacks === undefined) {
        haystacks = findings.map((f) => [f.code, f.message, f.page, f.rawHref, f.target, f.detail].filter((part) => part).join(' ').toLowerCase());
      }
      const matching = findings.filter(
        (finding, i) =>
          (severity === '' || finding.severity === severity) && (code === '' || finding.code === code) && (text === '' || haystacks[i].includes(text)),
      );
      table.show(matching, findings.length);
    }
    for (const id of ['finding-severity', 'finding-code', 'finding-text']) byId(id).addEventListener('input', render);
    render();
  }

  // ---- aliases and redirects -------------------------------------------------
  function aliasesTab() {
    function render() {
      const text = byId('alias-text').value.trim().toLowerCase();
      const matches = (...parts) => text === '' || parts.join(' ').toLowerCase().includes(text);
      const aliases = data.aliases.filter((alias) => matches(alias.from, alias.to, alias.evidence, alias.detail || ''));
      byId('alias-rows').replaceChildren(
        ...aliases.slice(0, LINK_LIMIT).map((alias) =>
          el('tr', {}, el('td', {}, pageLink(alias.from)), el('td', {}, '→'), el('td', {}, pageLink(alias.to)), el('td', {}, alias.evidence), el('td', {}, alias.detail || '')),
        ),
      );
      byId('alias-shown').textContent = shownText(aliases.length, data.aliases.length, 'aliases');
      const redirects = data.redirects.filter((chain) => matches(chain.url, ...chain.hops.map((hop) => hop.to || ''), chain.errorCode || ''));
      byId('redirect-rows').replaceChildren(
        ...redirects.slice(0, LINK_LIMIT).map((chain) => {
          const hops = el('ol', { class: 'hops' });
          for (const hop of chain.hops) hops.append(el('li', {}, hop.status + ' → ', hop.to ? pageLink(hop.to) : el('em', {}, 'no Location')));
          return el('tr', {}, el('td', {}, pageLink(chain.url)), el('td', {}, hops), el('td', {}, chain.errorCode || ''));
        }),
      );
      byId('redirect-shown').textContent = shownText(redirects.length, data.redirects.length, 'redirect chains');
    }
    byId('alias-text').addEventListener('input', render);
    render();
  }

  function shownText(shown, total, noun) {
    const limited = shown > LINK_LIMIT ? ' (the first ' + LINK_LIMIT + ' are listed)' : '';
    return shown + ' of ' + total + ' ' + noun + limited;
  }

  // ---- the graph: drawn, and an explorer of links in and out -----------------------
  ${GRAPH_SCRIPT}

  let isAdjacencyBuilt = false;
  function buildAdjacency() {
    if (isAdjacencyBuilt) return;
    isAdjacencyBuilt = true;
    const kinds = data.edgeKinds.map((kind) => kind.filter((part) => part).join(' '));
    // A row: [from, kind, to, to, [to, count], …].
    for (const row of data.edges) {
      const source = nodes.get(row[0]);
      const how = kinds[row[1]];
      for (let i = 2; i < row.length; i++) {
        const [to, count] = typeof row[i] === 'number' ? [row[i], 1] : row[i];
        const target = nodes.get(to);
        if (!source || !target) continue;
        source.out.push({ node: target, count, how });
        target.in.push({ node: source, count, how });
      }
    }
  }

  function graphTab() {
    let pool = urls.filter((node) => !(data.graph.internalOnly && isExternal(node)));
    pool.sort((a, b) => a.depth - b.depth || a.id - b.id);
    const notes = [];
    if (pool.length > data.graph.maxNodes) {
      notes.push('The drawing shows the ' + data.graph.maxNodes + ' shallowest of ' + pool.length + ' URLs.');
      pool = pool.slice(0, data.graph.maxNodes);
    }
    if (data.truncated) notes.push(data.truncated);
    if (notes.length > 0) {
      const notice = byId('graph-truncated');
      notice.textContent = notes.join(' ');
      notice.hidden = false;
    }
    const redirectPairs = [];
    for (const alias of data.aliases) {
      if (alias.evidence !== 'redirect') continue;
      const from = idOfKey.get(alias.from);
      const to = idOfKey.get(alias.to);
      if (from !== undefined && to !== undefined) redirectPairs.push([from, to]);
    }
    drawGraph(pool, redirectPairs, byId('graph-drawing'), byId('graph-legend'));
    const input = byId('page-search');
    input.addEventListener('input', () => {
      const text = input.value.trim().toLowerCase();
      const list = byId('page-matches');
      if (text === '') return list.replaceChildren();
      const found = [];
      for (const node of urls) {
        if (node.key.toLowerCase().includes(text)) found.push(node);
        if (found.length === LIST_LIMIT) break;
      }
      list.replaceChildren(...found.map((node) => el('li', {}, el('a', { class: 'url', href: '#page=' + node.id }, node.key))));
    });
  }

  function linkTable(links, emptyText) {
    if (links.length === 0) return el('p', { class: 'muted' }, emptyText);
    const sorted = [...links].sort((a, b) => (a.node.key < b.node.key ? -1 : a.node.key > b.node.key ? 1 : 0));
    const body = el('tbody');
    for (const link of sorted.slice(0, LINK_LIMIT)) {
      body.append(el('tr', {}, el('td', {}, el('a', { class: 'url', href: '#page=' + link.node.id }, link.node.key)), el('td', {}, link.how), el('td', { class: 'number' }, link.count), el('td', {}, statusBadge(link.node))));
    }
    const head = el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'page'), el('th', { scope: 'col' }, 'element'), el('th', { scope: 'col', class: 'number' }, 'links'), el('th', { scope: 'col' }, 'status')));
    const more = sorted.length > LINK_LIMIT ? el('p', { class: 'muted' }, 'The first ' + LINK_LIMIT + ' of ' + sorted.length + ' are listed.') : null;
    return el('div', {}, el('table', {}, head, body), more);
  }

  function showPage(node) {
    buildAdjacency();
    const facts = el('dl', { class: 'facts' });
    const fact = (name, ...value) => facts.append(el('dt', {}, name), el('dd', {}, ...value));
    fact('status', statusBadge(node));
    fact('state', el('span', { class: 'state state-' + node.state }, node.state));
    fact('depth', node.depth);
    fact('host', (node.host < 0 ? 'none' : hosts[node.host].name) + (node.isExternal ? ' (external)' : ''));
    const target = node.aliasOf === null ? undefined : nodes.get(node.aliasOf);
    if (target) fact('alias of', el('a', { class: 'url', href: '#page=' + target.id }, target.key));
    if (node.forms.length > 0) fact('spellings', el('ul', { class: 'forms' }, ...node.forms.map((form) => el('li', {}, el('code', {}, form)))));
    const outCount = node.out.reduce((sum, link) => sum + link.count, 0);
    const inCount = node.in.reduce((sum, link) => sum + link.count, 0);
    byId('page-view').replaceChildren(
      el('h3', { id: 'page-key', class: 'url' }, node.key),
      facts,
      el('h4', {}, 'Links out: ', el('span', { id: 'page-out-count' }, outCount), ' to ', pages(node.out.length)),
      linkTable(node.out, 'No links out.'),
      el('h4', {}, 'Links in: ', el('span', { id: 'page-in-count' }, inCount), ' from ', pages(node.in.length)),
      linkTable(node.in, 'No links in.'),
    );
  }

  function startNode() {
    for (const node of urls) if (node.depth === 0 && node.state !== 'alias') return node;
    return urls[0];
  }

  // ---- tabs ---------------------------------------------------------------------------
  const panels = [...document.querySelectorAll('.tab-panel')];
  const renderers = {
    links: () => urlTab('link', 'links', [...urls]),
    external: () => urlTab('external', 'external links', urls.filter(isExternal)),
    findings: findingsTab,
    aliases: aliasesTab,
    graph: graphTab,
  };
  const rendered = new Set();

  function showTab(name) {
    for (const panel of panels) panel.hidden = panel.id !== name;
    for (const link of document.querySelectorAll('nav a[data-tab]')) {
      if (link.dataset.tab === name) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    if (!rendered.has(name)) {
      rendered.add(name);
      if (renderers[name]) renderers[name]();
    }
  }

  function route() {
    let hash;
    try {
      hash = decodeURIComponent(location.hash.slice(1));
    } catch {
      hash = '';
    }
    const page = /^page=(\d+)$/.exec(hash);
    if (page) {
      showTab('graph');
      const node = nodes.get(Number(page[1]));
      if (node) showPage(node);
      else byId('page-view').replaceChildren(el('p', { class: 'muted' }, 'No such page in the index.'));
      byId('page-view').scrollIntoView();
      return;
    }
    const tab = panels.some((panel) => panel.id === hash) ? hash : 'broken';
    showTab(tab);
    // The graph's tab without a page named opens the explorer at the first seed.
    if (tab === 'graph') {
      const start = startNode();
      if (start) showPage(start);
    }
  }
  for (const link of document.querySelectorAll('nav a[data-tab]')) {
    link.addEventListener('click', (event) => {
      event.preventDefault();
      history.pushState(null, '', '#' + link.dataset.tab);
      route();
      link.focus();
    });
  }
  window.addEventListener('hashchange', route);
  window.addEventListener('popstate', route);
  route();
  document.body.dataset.readyMs = String(Math.round(performance.now()));
  document.body.dataset.ready = 'true';
})();
`;
