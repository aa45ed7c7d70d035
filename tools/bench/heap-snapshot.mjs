// Reading a V8 heap snapshot (.heapsnapshot, as `node --heapsnapshot-signal` writes it) for the
// benches: the live heap by constructor, and the chain of retainers that keeps one object alive.
// The file is read as bytes and its number arrays parsed in place (a snapshot of a 100 MB heap is
// a few hundred MB of text: one JavaScript string of it would not fit); only the strings table
// goes through JSON.parse.
import { readFileSync } from 'node:fs';

const COMMA = 44;
const CLOSE = 93;

/** The numbers of the array that starts after `marker` (`"nodes":[`), from `from` on. */
function numbersAfter(bytes, marker, from, count) {
  const at = bytes.indexOf(marker, from);
  if (at < 0) throw new Error(`heap snapshot: no ${marker}`);
  const out = new Float64Array(count);
  let i = at + marker.length;
  let n = 0;
  let value = 0;
  let inNumber = false;
  for (; ; i++) {
    const c = bytes[i];
    if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      inNumber = true;
    } else if (c === COMMA || c === CLOSE) {
      if (inNumber) out[n++] = value;
      value = 0;
      inNumber = false;
      if (c === CLOSE) break;
    }
  }
  if (n !== count) throw new Error(`heap snapshot: ${marker} has ${n} numbers, expected ${count}`);
  return { values: out, end: i + 1 };
}

/**
 * A heap snapshot's graph: `nodes` and `edges` as V8 lays them out (flat, `nodeFields` /
 * `edgeFields` numbers each), with names resolved through `strings`.
 */
export function readHeapSnapshot(path) {
  const bytes = readFileSync(path);
  const nodesAt = bytes.indexOf('"nodes":[');
  const head = JSON.parse(`${bytes.toString('utf8', 0, nodesAt).replace(/,\s*$/, '')}}`);
  const { meta, node_count: nodeCount, edge_count: edgeCount } = head.snapshot;
  const nodeFields = meta.node_fields;
  const edgeFields = meta.edge_fields;
  const nodes = numbersAfter(bytes, '"nodes":[', 0, nodeCount * nodeFields.length);
  const edges = numbersAfter(bytes, '"edges":[', nodes.end, edgeCount * edgeFields.length);
  const stringsAt = bytes.indexOf('"strings":[', edges.end) + '"strings":'.length;
  const stringsEnd = bytes.lastIndexOf(']');
  const strings = JSON.parse(bytes.toString('utf8', stringsAt, stringsEnd + 1));
  return {
    nodeFields,
    edgeFields,
    nodeTypes: meta.node_types[0],
    edgeTypes: meta.edge_types[0],
    nodes: nodes.values,
    edges: edges.values,
    strings,
    nodeCount,
    edgeCount,
  };
}

const STRING_TYPES = new Set(['string', 'concatenated string', 'sliced string']);

/** What a node is called in a tally: its type and name (strings by type only: their name is their text). */
export function nodeLabel(snapshot, node) {
  const { nodeFields, nodeTypes, nodes, strings } = snapshot;
  const width = nodeFields.length;
  const type = nodeTypes[nodes[node * width + nodeFields.indexOf('type')]];
  if (STRING_TYPES.has(type)) return type;
  const name = strings[nodes[node * width + nodeFields.indexOf('name')]] ?? '';
  return `${type} ${name.length > 80 ? `${name.slice(0, 77)}...` : name}`;
}

/**
 * The live heap by label: count and self size (bytes) of each, and the totals — `total` of V8's
 * heap (what `--max-old-space-size` bounds), `native` of the embedder's objects Node reports
 * beside it (C++ wrappers, buffers' memory: outside that bound).
 */
export function tally(snapshot) {
  const width = snapshot.nodeFields.length;
  const selfSize = snapshot.nodeFields.indexOf('self_size');
  const typeField = snapshot.nodeFields.indexOf('type');
  const nativeType = snapshot.nodeTypes.indexOf('native');
  const byLabel = new Map();
  let total = 0;
  let native = 0;
  for (let node = 0; node < snapshot.nodeCount; node++) {
    const size = snapshot.nodes[node * width + selfSize];
    if (snapshot.nodes[node * width + typeField] === nativeType) native += size;
    else total += size;
    const label = nodeLabel(snapshot, node);
    const entry = byLabel.get(label);
    if (entry === undefined) byLabel.set(label, { count: 1, bytes: size, first: node });
    else {
      entry.count++;
      entry.bytes += size;
    }
  }
  return { total, native, byLabel };
}

/** What grew from `before` to `after`, by label, largest first: per `per` (e.g. per held wait). */
export function growth(before, after, per = 1) {
  const rows = [];
  for (const [label, a] of after.byLabel) {
    const b = before.byLabel.get(label) ?? { count: 0, bytes: 0 };
    rows.push({ label, count: (a.count - b.count) / per, bytes: (a.bytes - b.bytes) / per });
  }
  return rows.sort((x, y) => y.bytes - x.bytes);
}

/**
 * The chain of retainers from the heap's root to one node of `label` (the last one of them in the
 * snapshot, likely among the newest): each step the retainer nearest the root, through strong
 * edges. Lines of `edge-name → label`, root first.
 */
export function retainerChain(snapshot, label) {
  const { nodeFields, edgeFields, edgeTypes, nodes, edges, strings, nodeCount } = snapshot;
  const width = nodeFields.length;
  const edgeWidth = edgeFields.length;
  const edgeCountField = nodeFields.indexOf('edge_count');
  const edgeType = edgeFields.indexOf('type');
  const edgeName = edgeFields.indexOf('name_or_index');
  const edgeTo = edgeFields.indexOf('to_node');
  const weak = edgeTypes.indexOf('weak');
  const firstEdge = new Uint32Array(nodeCount + 1);
  for (let node = 0; node < nodeCount; node++)
    firstEdge[node + 1] = firstEdge[node] + nodes[node * width + edgeCountField];
  // Distances from the root (node 0), breadth first over strong edges.
  const distance = new Int32Array(nodeCount).fill(-1);
  const queue = new Uint32Array(nodeCount);
  let head = 0;
  let tail = 0;
  distance[0] = 0;
  queue[tail++] = 0;
  while (head < tail) {
    const node = queue[head++];
    for (let e = firstEdge[node]; e < firstEdge[node + 1]; e++) {
      if (edges[e * edgeWidth + edgeType] === weak) continue;
      const to = edges[e * edgeWidth + edgeTo] / width;
      if (distance[to] === -1) {
        distance[to] = distance[node] + 1;
        queue[tail++] = to;
      }
    }
  }
  let target = -1;
  for (let node = nodeCount - 1; node >= 0 && target < 0; node--)
    if (distance[node] > 0 && nodeLabel(snapshot, node) === label) target = node;
  if (target < 0) return [`(no reachable ${label})`];
  const lines = [];
  let node = target;
  for (let steps = 0; node !== 0 && steps < 30; steps++) {
    // The retainer nearest the root: a strong edge into `node` from a node one step closer.
    let best = -1;
    let bestEdge = -1;
    for (let from = 0; from < nodeCount && best < 0; from++) {
      if (distance[from] !== distance[node] - 1) continue;
      for (let e = firstEdge[from]; e < firstEdge[from + 1]; e++)
        if (
          edges[e * edgeWidth + edgeTo] / width === node &&
          edges[e * edgeWidth + edgeType] !== weak
        ) {
          best = from;
          bestEdge = e;
          break;
        }
    }
    if (best < 0) break;
    const type = edgeTypes[edges[bestEdge * edgeWidth + edgeType]];
    const nameOrIndex = edges[bestEdge * edgeWidth + edgeName];
    const name =
      type === 'element' || type === 'hidden' ? `[${nameOrIndex}]` : strings[nameOrIndex];
    lines.unshift(`${nodeLabel(snapshot, best)} --${name}--> ${nodeLabel(snapshot, node)}`);
    node = best;
  }
  return lines;
}

/**
 * Who holds the nodes of `label`, tallied: for each, its retainers through strong edges, as
 * `retainer label --edge-->` with how many and the bytes of the nodes they hold; largest first.
 */
export function retainersOf(snapshot, label) {
  const { nodeFields, edgeFields, edgeTypes, nodes, edges, strings, nodeCount } = snapshot;
  const width = nodeFields.length;
  const edgeWidth = edgeFields.length;
  const edgeCountField = nodeFields.indexOf('edge_count');
  const selfSize = nodeFields.indexOf('self_size');
  const edgeType = edgeFields.indexOf('type');
  const edgeName = edgeFields.indexOf('name_or_index');
  const edgeTo = edgeFields.indexOf('to_node');
  const weak = edgeTypes.indexOf('weak');
  const wanted = new Uint8Array(nodeCount);
  for (let node = 0; node < nodeCount; node++)
    if (nodeLabel(snapshot, node) === label) wanted[node] = 1;
  const byRetainer = new Map();
  let e = 0;
  for (let from = 0; from < nodeCount; from++) {
    const end = e + nodes[from * width + edgeCountField];
    for (; e < end; e++) {
      const to = edges[e * edgeWidth + edgeTo] / width;
      if (!wanted[to] || edges[e * edgeWidth + edgeType] === weak) continue;
      const type = edgeTypes[edges[e * edgeWidth + edgeType]];
      const nameOrIndex = edges[e * edgeWidth + edgeName];
      const name =
        type === 'element' || type === 'hidden' ? '[n]' : String(strings[nameOrIndex]).slice(0, 40);
      const key = `${nodeLabel(snapshot, from)} --${name}-->`;
      const entry = byRetainer.get(key) ?? { count: 0, bytes: 0 };
      entry.count++;
      entry.bytes += nodes[to * width + selfSize];
      byRetainer.set(key, entry);
    }
  }
  return [...byRetainer].map(([by, v]) => ({ by, ...v })).sort((a, b) => b.bytes - a.bytes);
}
