// The drawn link graph, a part of the report's script (report-script.ts inlines it):
// a radial tree — each URL on the ring of its depth, under the page that first linked
// it, its angle a share of its parent's in proportion to the leaves below it — in one
// linear pass, so that a crawl of thousands of pages draws in a blink. Nodes are
// coloured by status class; redirects are orange arrows from the alias to its target.
// Plain ES2020 for the browser, kept as text; data reaches the SVG through
// textContent and attributes only.

export const GRAPH_SCRIPT = String.raw`
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const CLASS_COLOURS = { '2xx': '#198754', '3xx': '#0d6efd', '4xx': '#dc3545', '5xx': '#6f42c1', error: '#212529', 'not checked': '#adb5bd' };
  const RING_GAP = 60;

  function svgEl(tag, attributes) {
    const element = document.createElementNS(SVG_NS, tag);
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
    return element;
  }

  // Draw the pool of URL records (sorted by depth: parents before children) into the container.
  function drawGraph(pool, redirectPairs, container, legend) {
    const count = pool.length;
    const index = new Map();
    pool.forEach((node, i) => index.set(node.id, i));
    const parent = new Int32Array(count).fill(-1);
    const children = Array.from({ length: count }, () => []);
    // A URL no link named (learned from a redirect) hangs under the alias that leads to it.
    const viaAlias = new Map();
    for (const node of pool) if (node.aliasOf !== null && !viaAlias.has(node.aliasOf)) viaAlias.set(node.aliasOf, node.id);
    for (let i = 0; i < count; i++) {
      const from = pool[i].firstFrom === null ? viaAlias.get(pool[i].id) : pool[i].firstFrom;
      const p = from === undefined ? undefined : index.get(from);
      if (p !== undefined && p < i) {
        parent[i] = p;
        children[p].push(i);
      }
    }
    // Leaves below each node: children come after their parent, so one pass backwards.
    const leaves = new Float64Array(count);
    for (let i = count - 1; i >= 0; i--) {
      let sum = 0;
      for (const child of children[i]) sum += leaves[child];
      leaves[i] = Math.max(1, sum);
    }
    const roots = [];
    let total = 0;
    for (let i = 0; i < count; i++) {
      if (parent[i] === -1) {
        roots.push(i);
        total += leaves[i];
      }
    }
    const start = new Float64Array(count);
    const span = new Float64Array(count);
    const ring = new Int32Array(count);
    let cursor = 0;
    const seedRoots = roots.filter((root) => pool[root].depth === 0).length;
    for (const root of roots) {
      start[root] = (cursor / total) * 2 * Math.PI;
      span[root] = (leaves[root] / total) * 2 * Math.PI;
      cursor += leaves[root];
      ring[root] = pool[root].depth === 0 && seedRoots === 1 ? 0 : 1;
    }
    for (let i = 0; i < count; i++) {
      let at = start[i];
      let below = 0;
      for (const child of children[i]) below += leaves[child];
      for (const child of children[i]) {
        start[child] = at;
        span[child] = (span[i] * leaves[child]) / below;
        at += span[child];
        ring[child] = ring[i] + 1;
      }
    }
    const x = new Float64Array(count);
    const y = new Float64Array(count);
    let maxRing = 1;
    for (let i = 0; i < count; i++) {
      const angle = start[i] + span[i] / 2;
      const radius = ring[i] * RING_GAP;
      x[i] = Math.round(radius * Math.cos(angle) * 10) / 10;
      y[i] = Math.round(radius * Math.sin(angle) * 10) / 10;
      if (ring[i] > maxRing) maxRing = ring[i];
    }
    const extent = maxRing * RING_GAP + 20;
    const nodeRadius = count > 2000 ? 3 : count > 300 ? 4 : 6;
    const svg = svgEl('svg', { viewBox: -extent + ' ' + -extent + ' ' + 2 * extent + ' ' + 2 * extent, width: '100%', height: '100%', role: 'img', 'aria-labelledby': 'graph-svg-title' });
    const title = svgEl('title', { id: 'graph-svg-title' });
    title.textContent = 'Link graph: ' + count + ' URLs coloured by status, ' + redirectPairs.length + ' redirects drawn as arrows';
    svg.append(title);
    const defs = svgEl('defs', {});
    const marker = svgEl('marker', { id: 'redirect-arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
    marker.append(svgEl('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#fd7e14' }));
    defs.append(marker);
    svg.append(defs);
    // The tree's lines, as one path: thousands of segments, one element.
    let d = '';
    for (let i = 0; i < count; i++) if (parent[i] !== -1) d += 'M' + x[parent[i]] + ' ' + y[parent[i]] + 'L' + x[i] + ' ' + y[i];
    svg.append(svgEl('path', { class: 'tree-edges', d, stroke: '#ced4da', 'stroke-width': 0.6, fill: 'none', 'vector-effect': 'non-scaling-stroke' }));
    const redirects = svgEl('g', { class: 'redirect-edges' });
    for (const [fromId, toId] of redirectPairs) {
      const a = index.get(fromId);
      const b = index.get(toId);
      if (a === undefined || b === undefined) continue;
      const dx = x[b] - x[a];
      const dy = y[b] - y[a];
      const length = Math.hypot(dx, dy) || 1;
      const line = svgEl('line', {
        class: 'redirect-edge',
        'data-from': fromId,
        'data-to': toId,
        x1: x[a],
        y1: y[a],
        x2: Math.round((x[b] - (dx / length) * nodeRadius) * 10) / 10,
        y2: Math.round((y[b] - (dy / length) * nodeRadius) * 10) / 10,
        stroke: '#fd7e14',
        'stroke-width': 2,
        'vector-effect': 'non-scaling-stroke',
        'marker-end': 'url(#redirect-arrow)',
      });
      redirects.append(line);
    }
    svg.append(redirects);
    const group = svgEl('g', { class: 'nodes' });
    const drawnByClass = {};
    for (let i = 0; i < count; i++) {
      const node = pool[i];
      const statusClass = CLASSES[node.cls];
      drawnByClass[statusClass] = (drawnByClass[statusClass] || 0) + 1;
      const circle = svgEl('circle', { cx: x[i], cy: y[i], r: nodeRadius, fill: CLASS_COLOURS[statusClass], 'data-id': node.id, 'data-class': statusClass });
      const tip = svgEl('title', {});
      tip.textContent = node.key + ' — ' + node.label;
      circle.append(tip);
      group.append(circle);
    }
    svg.append(group);
    svg.addEventListener('click', (event) => {
      const id = event.target && event.target.getAttribute && event.target.getAttribute('data-id');
      if (id) location.hash = 'page=' + id;
    });
    container.replaceChildren(svg);
    container.dataset.drawn = String(count);
    const items = CLASSES.filter((name) => drawnByClass[name]).map((name) =>
      el('li', { 'data-class': name }, el('span', { class: 'swatch swatch-' + name.replace(' ', '-') }), name + ': ' + drawnByClass[name]),
    );
    items.push(el('li', {}, el('span', { class: 'swatch swatch-redirect' }), 'redirect: ' + redirects.childElementCount));
    legend.replaceChildren(...items);
  }
`;
