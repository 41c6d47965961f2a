// The report's one script, inlined into the page: it reads the embedded JSON and
// renders the findings filter, the alias and redirect tables and the graph explorer.
// Plain ES2020 for the browser, kept as text: every value from the data reaches the
// page through textContent or an attribute, never through innerHTML.

export const REPORT_SCRIPT = String.raw`
(() => {
  'use strict';
  const ROW_LIMIT = 1000;
  const LIST_LIMIT = 50;
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const byId = (id) => document.getElementById(id);

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

  function fillSelect(select, values) {
    for (const value of values) select.append(el('option', { value }, value));
  }

  function pages(count) {
    return count + (count === 1 ? ' page' : ' pages');
  }

  function shownText(shown, total, noun) {
    const limited = shown > ROW_LIMIT ? ' (the first ' + ROW_LIMIT + ' are listed)' : '';
    return shown + ' of ' + total + ' ' + noun + limited;
  }

  // ---- the graph: nodes by id, adjacency both ways -------------------------
  const nodes = new Map();
  const idOfKey = new Map();
  for (const [id, key, state, depth, aliasOf, status, forms] of data.nodes) {
    nodes.set(id, { id, key, state, depth, aliasOf, status, forms, out: [], in: [] });
    idOfKey.set(key, id);
  }
  for (const [from, to, count, element, attribute] of data.edges) {
    const source = nodes.get(from);
    const target = nodes.get(to);
    if (!source || !target) continue;
    const how = [element, attribute].filter((part) => part).join(' ');
    source.out.push({ node: target, count, how });
    target.in.push({ node: source, count, how });
  }

  function pageLink(key) {
    const id = idOfKey.get(key);
    return id === undefined ? el('span', { class: 'url' }, key) : el('a', { class: 'url', href: '#page=' + id }, key);
  }

  // ---- findings ---------------------------------------------------------------
  const findingRows = data.findings.map((finding) => ({
    finding,
    haystack: [finding.code, finding.message, finding.page, finding.rawHref, finding.target, JSON.stringify(finding.detail)]
      .filter((part) => part)
      .join(' ')
      .toLowerCase(),
  }));
  fillSelect(byId('finding-code'), [...new Set(data.findings.map((finding) => finding.code))].sort());

  function findingRow(finding) {
    const detail = Object.entries(finding.detail || {}).map(([name, value]) => name + ': ' + value).join(', ');
    return el(
      'tr',
      { class: 'severity-' + finding.severity },
      el('td', {}, el('span', { class: 'badge badge-' + finding.severity }, finding.severity)),
      el('td', {}, el('code', {}, finding.code)),
      el('td', {}, finding.page ? pageLink(finding.page) : 'site'),
      el('td', {}, finding.rawHref === undefined || finding.rawHref === null ? '' : el('code', {}, finding.rawHref)),
      el('td', {}, finding.message, detail ? el('div', { class: 'detail' }, detail) : null),
    );
  }

  function renderFindings() {
    const severity = byId('finding-severity').value;
    const code = byId('finding-code').value;
    const text = byId('finding-text').value.trim().toLowerCase();
    const matching = findingRows.filter(
      (row) =>
        (severity === '' || row.finding.severity === severity) &&
        (code === '' || row.finding.code === code) &&
        (text === '' || row.haystack.includes(text)),
    );
    byId('finding-rows').replaceChildren(...matching.slice(0, ROW_LIMIT).map((row) => findingRow(row.finding)));
    byId('finding-shown').textContent = shownText(matching.length, findingRows.length, 'findings');
  }
  for (const id of ['finding-severity', 'finding-code', 'finding-text']) byId(id).addEventListener('input', renderFindings);
  renderFindings();

  // ---- aliases and redirects -------------------------------------------------
  function renderAliases() {
    const text = byId('alias-text').value.trim().toLowerCase();
    const matches = (...parts) => text === '' || parts.join(' ').toLowerCase().includes(text);
    const aliases = data.aliases.filter((alias) => matches(alias.from, alias.to, alias.evidence, alias.detail || ''));
    byId('alias-rows').replaceChildren(
      ...aliases.slice(0, ROW_LIMIT).map((alias) =>
        el('tr', {}, el('td', {}, pageLink(alias.from)), el('td', {}, '→'), el('td', {}, pageLink(alias.to)), el('td', {}, alias.evidence), el('td', {}, alias.detail || '')),
      ),
    );
    byId('alias-shown').textContent = shownText(aliases.length, data.aliases.length, 'aliases');
    const redirects = data.redirects.filter((chain) => matches(chain.url, ...chain.hops.map((hop) => hop.to || ''), chain.errorCode || ''));
    byId('redirect-rows').replaceChildren(
      ...redirects.slice(0, ROW_LIMIT).map((chain) => {
        const hops = el('ol', { class: 'hops' });
        for (const hop of chain.hops) hops.append(el('li', {}, hop.status + ' → ', hop.to ? pageLink(hop.to) : el('em', {}, 'no Location')));
        return el('tr', {}, el('td', {}, pageLink(chain.url)), el('td', {}, hops), el('td', {}, chain.errorCode || ''));
      }),
    );
    byId('redirect-shown').textContent = shownText(redirects.length, data.redirects.length, 'redirect chains');
  }
  byId('alias-text').addEventListener('input', renderAliases);
  renderAliases();

  // ---- the graph explorer ------------------------------------------------------
  function renderSearch() {
    const text = byId('page-search').value.trim().toLowerCase();
    const found = [];
    for (const node of nodes.values()) {
      if (text === '' || node.key.toLowerCase().includes(text)) found.push(node);
      if (found.length === LIST_LIMIT) break;
    }
    byId('page-matches').replaceChildren(
      ...found.map((node) => el('li', {}, el('a', { class: 'url', href: '#page=' + node.id }, node.key), ' ', el('span', { class: 'state state-' + node.state }, node.state))),
    );
  }
  byId('page-search').addEventListener('input', renderSearch);
  renderSearch();

  function linkTable(links, emptyText) {
    if (links.length === 0) return el('p', { class: 'muted' }, emptyText);
    const sorted = [...links].sort((a, b) => (a.node.key < b.node.key ? -1 : a.node.key > b.node.key ? 1 : 0));
    const body = el('tbody');
    for (const link of sorted.slice(0, ROW_LIMIT)) {
      body.append(
        el('tr', {}, el('td', {}, el('a', { class: 'url', href: '#page=' + link.node.id }, link.node.key)), el('td', {}, link.how), el('td', { class: 'number' }, link.count), el('td', {}, el('span', { class: 'state state-' + link.node.state }, link.node.state))),
      );
    }
    return el('table', {}, el('thead', {}, el('tr', {}, el('th', {}, 'page'), el('th', {}, 'element'), el('th', { class: 'number' }, 'links'), el('th', {}, 'state'))), body);
  }

  function showPage(node) {
    const facts = el('dl', { class: 'facts' });
    const fact = (name, ...value) => facts.append(el('dt', {}, name), el('dd', {}, ...value));
    fact('state', el('span', { class: 'state state-' + node.state }, node.state));
    fact('depth', node.depth);
    if (node.status !== null && node.status !== undefined) fact('status', node.status);
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

  if (data.truncated) {
    const notice = byId('graph-truncated');
    notice.textContent = data.truncated;
    notice.hidden = false;
  }

  function startNode() {
    for (const node of nodes.values()) if (node.depth === 0 && node.state !== 'alias') return node;
    return nodes.values().next().value;
  }

  function route() {
    const match = /^#page=(\d+)$/.exec(location.hash);
    const node = match ? nodes.get(Number(match[1])) : startNode();
    if (node) showPage(node);
    else byId('page-view').replaceChildren(el('p', { class: 'muted' }, 'No such page in the graph.'));
  }
  window.addEventListener('hashchange', () => {
    route();
    byId('graph').scrollIntoView();
  });
  route();
  document.body.dataset.ready = 'true';
})();
`;
