// The analysis drawn on the board (boards.js draws the board, this its overlay): an arrow
// for the engine's best move and fainter ones for the next two root moves, and for engines
// that count visits (MCTS) a heat map shading each move's place by its share of the visits.
//
// Where a move goes comes from the diagram's targets (docs/protocol.md, "Diagrams"), as for
// clicks: a target with a `fromPlace` is an arrow from it to its first `toPlace` (chess);
// one without is a ring on the place the move lands on (tic-tac-toe, Hex, Connect Four's
// column, a Nim stick); a move without a target (Pig's roll, backgammon's plays, a swap)
// draws nothing.
//
// The marks belong to one position: `setMarks` takes the position object they were searched
// in, and a board drawn for another position shows none.

import { escapeHtml as escape } from "./html.js";

const ARROWS = 3; // the best move and the next two
const OPACITY = [0.85, 0.45, 0.3]; // the best arrow strong, the others fainter
const HEAT_OPACITY = 0.75; // the most visited place's shade; the others in proportion

const marks = { position: null, rootMoves: [] };
const shown = { arrows: true, heat: false }; // toggled by the page's buttons and keys

// The analysis of `position` to draw: its root moves, best first (Info.root_moves).
export function setMarks(position, rootMoves) {
  marks.position = position;
  marks.rootMoves = rootMoves || [];
}

export function clearMarks() {
  marks.position = null;
  marks.rootMoves = [];
}

// Whether the marks have visits to draw a heat map of (an MCTS engine's analysis).
export const hasVisits = () => marks.rootMoves.some((move) => move.score?.visits !== undefined);

// Draw the marks into the board's overlay (`container` is the board drawn by boards.js: its
// `layout` has each place's centre and the position it shows).
export function drawMarks(container) {
  const layout = container.layout;
  const overlay = container.querySelector("svg .overlay");
  if (!layout || !overlay) return showHeatControls(false, null); // a text board: no marks
  const own = marks.position === layout.position;
  const shares = own && shown.heat && hasVisits() ? visitShares(layout) : null;
  const heat = shares ? heatMap(layout, shares) : "";
  const arrows = own && shown.arrows ? bestMoves(layout) : "";
  overlay.innerHTML = heat + arrows;
  container.dataset.arrows = String(overlay.querySelectorAll(".best").length);
  container.dataset.heat = heat ? "yes" : "no";
  showHeatControls(own && hasVisits(), heat ? shares : null);
}

// Show or hide the arrows or the heat map (`kind`: "arrows", "heat"): the buttons and keys.
export function toggleMarks(kind) {
  shown[kind] = !shown[kind];
  document.getElementById(`${kind}-toggle`).setAttribute("aria-pressed", String(shown[kind]));
  drawMarks(document.getElementById("board"));
}

// The heat map's button, where the analysis counts visits, and its legend while it is on:
// the most visited places and their shares (the shading's scale).
const LEGEND_PLACES = 3;

function showHeatControls(visits, shares) {
  document.getElementById("heat-toggle").hidden = !visits;
  const legend = document.getElementById("heat-legend");
  legend.hidden = !shares;
  if (!shares) return;
  const most = [...shares.visits].sort((a, b) => b[1] - a[1]).slice(0, LEGEND_PLACES);
  const text = most.map(([id, count]) => `${id} ${((count / shares.total) * 100).toFixed(1)}%`).join(", ");
  legend.querySelector(".heat-most").textContent = text;
}

// ------------------------------------------------------------------ where a move goes

// The places `move` goes from and to on the diagram: { from, to } (from null for a move
// that is one place), or null for a move without a target.
function placesOf(move, layout) {
  const target = layout.diagram.targets.find((candidate) => candidate.move === move);
  if (!target) return null;
  if (target.fromPlace) return { from: target.fromPlace, to: target.toPlaces[0] };
  return { from: null, to: landing(target.toPlaces, layout) };
}

// Of a target's places, where the move lands: its one place, or of several (Connect Four
// lists a column's cells top to bottom) the last empty one, where a dropped disc stops.
function landing(places, layout) {
  const empty = places.filter((id) => !layout.pieces.has(id));
  const candidates = empty.length ? empty : places;
  return candidates[candidates.length - 1];
}

// ------------------------------------------------------------------ arrows and rings

function bestMoves(layout) {
  return marks.rootMoves
    .slice(0, ARROWS)
    .map((root, rank) => {
      const places = placesOf(root.move, layout);
      return places ? mark(places, layout, rank, root.moveLabel || root.move) : "";
    })
    .reverse() // the best drawn last, on top
    .join("");
}

function mark({ from, to }, layout, rank, label) {
  const end = layout.centers.get(to);
  const start = from && layout.centers.get(from);
  if (!end || (from && !start)) return "";
  const attributes = `class="best rank-${rank}" data-move-label="${escape(label)}" data-from="${escape(from || "")}" data-to="${escape(to)}" opacity="${OPACITY[rank]}"`;
  const title = `<title>${rank === 0 ? "best move" : `move ${rank + 1}`}: ${escape(label)}</title>`;
  if (!start) {
    return `<circle ${attributes} cx="${end.x}" cy="${end.y}" r="${end.r * 0.7}" stroke-width="${end.r * 0.22}">${title}</circle>`;
  }
  return `<path ${attributes} d="${arrowPath(start, end, start.r * 0.32)}">${title}</path>`;
}

// An arrow from the centre of `a` to that of `b` as one closed outline: a shaft `width`
// wide and a head three times as wide, its tip short of b's centre.
function arrowPath(a, b, width) {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length = Math.hypot(dx, dy);
  const [ux, uy] = [dx / length, dy / length]; // along the arrow
  const [nx, ny] = [-uy, ux]; // across it
  const tip = length - b.r * 0.35;
  const neck = tip - width * 2.6;
  const at = (along, across) => `${(a.x + ux * along + nx * across).toFixed(2)},${(a.y + uy * along + ny * across).toFixed(2)}`;
  const half = width / 2;
  const points = [at(0, half), at(neck, half), at(neck, width * 1.5), at(tip, 0), at(neck, -width * 1.5), at(neck, -half), at(0, -half)];
  return `M${points.join("L")}Z`;
}

// ------------------------------------------------------------------ heat map

// Each place's share of the root moves' visits (moves landing on the same place add up).
function visitShares(layout) {
  const visits = new Map();
  let total = 0;
  for (const root of marks.rootMoves) {
    const count = Number(root.score?.visits || 0);
    const places = placesOf(root.move, layout);
    total += count;
    if (places && count) visits.set(places.to, (visits.get(places.to) || 0) + count);
  }
  return { visits, total };
}

function heatMap(layout, { visits, total }) {
  if (!total) return "";
  const most = Math.max(...visits.values());
  let body = "";
  for (const [id, count] of visits) {
    const center = layout.centers.get(id);
    if (!center) continue;
    const share = count / total;
    const text = `${id}: ${(share * 100).toFixed(1)}% of the visits (${count})`;
    body += `<circle class="heat" data-heat-place="${escape(id)}" data-share="${share.toFixed(4)}" cx="${center.x}" cy="${center.y}" r="${center.r * 0.95}" fill-opacity="${((HEAT_OPACITY * count) / most).toFixed(3)}"><title>${escape(text)}</title></circle>`;
  }
  return body;
}
