// The game's tree of moves, as lichess's analysis board keeps it: each node a move (the root
// the start position), its children the moves played from there. The first move played
// from a node stays its main line; a different one played later becomes a variation beside
// it. The page shows one line of the tree: the path from the root to the current node, then
// the current node's main line on (what → and End walk).
//
// A node: { id, parent, move (the wire's notation), label (as people read it, once known),
// children, comment, eval (the first player's value, the graph's), plies (a proven result:
// plies to the end, positive when the first player wins), clockMs (the mover's time left),
// chance (its position is a chance node, where known) }.

let counter = 0;

export function newNode(parent, move = "", label = "") {
  counter += 1;
  return { id: counter, parent, move, label, children: [], comment: "", eval: undefined, plies: undefined, clockMs: undefined, chance: undefined };
}

// The nodes from the root to `node`, both included.
export function pathTo(node) {
  const path = [];
  for (let at = node; at; at = at.parent) path.push(at);
  return path.reverse();
}

// The line through `node`: its path, then its main line on.
export function lineThrough(node) {
  const line = pathTo(node);
  for (let at = node.children[0]; at; at = at.children[0]) line.push(at);
  return line;
}

export function depth(node) {
  return pathTo(node).length - 1;
}

// The child of `node` that plays `move`, a new one (the last variation) where none does.
export function childFor(node, move) {
  const found = node.children.find((child) => child.move === move);
  if (found) return { child: found, added: false };
  const child = newNode(node, move);
  node.children.push(child);
  return { child, added: true };
}

export function removeNode(node) {
  const siblings = node.parent.children;
  siblings.splice(siblings.indexOf(node), 1);
}

// Whether `node` lies on the main line (every node of its path a first child).
export function onMainLine(node) {
  return pathTo(node).every((at) => !at.parent || at.parent.children[0] === at);
}

// Promote the variation `node` lies in one step: the nearest node of its path that is not
// a first child moves before its siblings (lichess's "promote variation"); repeated, the
// variation becomes the main line.
export function promote(node) {
  for (let at = node; at.parent; at = at.parent) {
    const siblings = at.parent.children;
    if (siblings[0] !== at) {
      siblings.splice(siblings.indexOf(at), 1);
      siblings.unshift(at);
      return;
    }
  }
}

// The node next to `node` among its siblings (step -1: the one before), or null.
export function sibling(node, step) {
  if (!node.parent) return null;
  const siblings = node.parent.children;
  return siblings[siblings.indexOf(node) + step] || null;
}

// A tree from the flat list of a GameTree (ImportGame, protocol.md): each node after its
// parent (-1: the root), labels, comments, clock times and evaluations.
export function fromRecord(nodes) {
  const root = newNode(null);
  const made = [];
  for (const item of nodes) {
    const parent = item.parent < 0 ? root : made[item.parent];
    const node = newNode(parent, item.move, item.label || "");
    node.comment = item.comment || "";
    if (item.clockMs !== undefined) node.clockMs = Number(item.clockMs);
    if (item.evalPlies !== undefined) {
      node.plies = item.evalPlies;
      node.eval = item.evalPlies > 0 ? 1000 : -1000;
    } else if (item.evalCenti !== undefined) node.eval = item.evalCenti / 100;
    parent.children.push(node);
    made.push(node);
  }
  return root;
}

// The tree below `root` as an ExportRequest's nodes (preorder, the main line first), only
// the nodes `keep` keeps (and never a child of a node left out).
export function toRecord(root, keep = () => true) {
  const nodes = [];
  const stack = [...root.children].reverse().map((node) => [node, -1]);
  while (stack.length) {
    const [node, parent] = stack.pop();
    if (!keep(node)) continue;
    nodes.push(recordNode(node, parent));
    const index = nodes.length - 1;
    for (const child of [...node.children].reverse()) stack.push([child, index]);
  }
  return nodes;
}

function recordNode(node, parent) {
  const item = { parent, move: node.move, comment: node.comment };
  if (node.clockMs !== undefined) item.clockMs = String(Math.max(0, Math.round(node.clockMs)));
  if (node.plies !== undefined) item.evalPlies = node.plies;
  else if (Number.isFinite(node.eval) && Math.abs(node.eval) < 1000) item.evalCenti = Math.round(node.eval * 100);
  return item;
}
