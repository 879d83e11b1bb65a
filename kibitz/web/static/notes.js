// What the analysis said about the positions of the line, kept for the board and the move
// list: a position's best moves (the root moves, best first) and what a move played there
// cost against the best (GNU Backgammon's "error": "−0.043 (best was 13/7 8/7)"), from the
// root moves' expected values (expectimax).

const analyses = new Map(); // "game|position" -> its latest root moves, best first
const positions = new WeakMap(); // a node of the tree of moves (tree.js) -> "game|position"

const idOf = (position) => `${position.game}|${position.position}`;

// The analysis of `position` (the gateway's describe answer) reports `rootMoves`.
export function recordAnalysis(position, rootMoves) {
  if (rootMoves && rootMoves.length) analyses.set(idOf(position), rootMoves);
}

// The moves of `position`, best first, as its analysis ranked them (empty: not analysed, or
// before a roll, where the root moves are the outcomes).
export function bestMoves(position) {
  const roots = analyses.get(idOf(position)) || [];
  return roots.some((root) => root.probability !== undefined) ? [] : roots.map((root) => root.move);
}

// The board shows `node`'s position, described as `position`.
export function notePosition(node, position) {
  positions.set(node, idOf(position));
}

const EPSILON = 0.0005; // what rounds to 0.000

// The equity `node`'s move lost against the best move of the analysis of the position it was
// played in: "−0.043 (best was 13/7 8/7)"; "" where it is the best or no exact values are
// known (not analysed, an outcome, bounds).
export function moveNote(node) {
  const id = node.parent && positions.get(node.parent);
  const roots = (id && analyses.get(id)) || [];
  const best = roots[0];
  const move = roots.find((root) => root.move === node.move || (node.label && root.moveLabel === node.label));
  const exact = (root) => root && root.score.expectedValue !== undefined && root.score.bound === "EXACT" && root.probability === undefined;
  if (!exact(best) || !exact(move)) return "";
  const error = Number(move.score.expectedValue) - Number(best.score.expectedValue);
  if (error > -EPSILON) return "";
  return `−${Math.abs(error).toFixed(3)} (best was ${best.moveLabel || best.move})`;
}
