// Boards drawn as SVG from the server's diagram alone (Describe's PositionInfo.diagram,
// docs/protocol.md "Diagrams"): one renderer per kind of diagram, none per game. A click maps
// to a move through the diagram's targets: a click on one of a target's places (after one on
// its `fromPlace`, where it has one) plays its move; several moves for the same clicks (chess
// promotions) are offered by their labels; legal moves without a target are buttons. A game
// that draws no diagram is shown as the server's text board, with a button per move.
//
// draw(container, position, context): `position` is the gateway's describe answer,
// context = { play(move), enabled, flipped }. Every place carries `data-place`; a place one
// click plays carries that move in `data-move`, as do the move buttons.

import { escapeHtml as escape } from "./html.js";
import { drawMarks } from "./overlay.js";

const SVG = "http://www.w3.org/2000/svg";
const PALETTE = ["#d33f2f", "#2f6f9f", "#1d7a3a", "#8a4fb0"]; // players without colours
const NEUTRAL = "#a0662b";
const MIN_WIDTH = 64; // in the units of a grid's cell of 10
const SHAPES = new Set(["disc", "stone", "cross", "ring", "checker", "stick", "marker"]);
const selection = { from: null, choices: null }; // the place clicked first, moves to choose from

export function resetSelection() {
  selection.from = null;
  selection.choices = null;
}

function colorOf(diagram, owner) {
  if (owner < 0) return NEUTRAL;
  return diagram.colors[owner] || PALETTE[owner % PALETTE.length];
}

// ------------------------------------------------------------------ pieces

// A piece centred at (x, y) in a cell of `size`: a shape, or its text.
function piece(diagram, place, x, y, size) {
  if (!place.piece) return "";
  const color = colorOf(diagram, place.owner);
  const r = size * 0.4;
  let body;
  switch (place.piece) {
    case "disc":
    case "checker":
    case "stone":
      body = `<circle class="shape ${place.piece}" cx="${x}" cy="${y}" r="${r}" fill="${color}"/>`;
      break;
    case "marker":
      body = `<circle class="shape marker" cx="${x}" cy="${y}" r="${r * 0.6}" fill="${color}"/>`;
      break;
    case "ring":
      body = `<circle class="shape ring" cx="${x}" cy="${y}" r="${r * 0.7}" stroke="${color}"/>`;
      break;
    case "cross": {
      const d = r * 0.7;
      body = `<path class="shape cross" stroke="${color}" d="M${x - d} ${y - d}L${x + d} ${y + d}M${x + d} ${y - d}L${x - d} ${y + d}"/>`;
      break;
    }
    case "stick":
      body = `<rect class="shape stick" x="${x - size * 0.15}" y="${y - size * 0.42}" width="${size * 0.3}" height="${size * 0.84}" rx="${size * 0.1}" fill="${color}"/>`;
      break;
    default:
      body = `<text class="piece" x="${x}" y="${y + size * 0.3}" font-size="${size * 0.84}" fill="${color}">${escape(place.piece)}</text>`;
  }
  if (place.count > 1) {
    body += `<text class="count" x="${x}" y="${y + size * 0.15}" font-size="${size * 0.4}">${place.count}</text>`;
  }
  return body;
}

// The attributes and classes of a place: its id, the move one click plays, its state. Every
// place can take the focus and says what it is (its id, its piece); the places a click does
// something on are buttons (Enter or Space clicks them). The board is one tab stop (rove).
function placeAttributes(place, clicks) {
  const classes = ["place"];
  const direct = clicks.direct.get(place.id) || [];
  if (direct.length || clicks.starts.has(place.id)) classes.push("legal");
  if (clicks.reachable.has(place.id)) classes.push("reachable");
  if (clicks.highlights.has(place.id)) classes.push("highlight");
  if (selection.from === place.id) classes.push("selected");
  const move = direct.length === 1 ? ` data-move="${escape(direct[0].move)}"` : "";
  const active = classes.length > 1 && !(classes.length === 2 && classes[1] === "highlight");
  const owner = place.owner >= 0 ? ` of player ${place.owner + 1}` : "";
  const what = [place.id, place.piece ? `${place.piece}${place.count > 1 ? ` ×${place.count}` : ""}${owner}` : "empty"];
  if (selection.from === place.id) what.push("selected");
  const focus = active ? ` tabindex="-1" role="button"` : ` tabindex="-1" role="img"`; // named, so a role; rove() picks the tab stop
  return `class="${classes.join(" ")}" data-place="${escape(place.id)}"${move}${focus} aria-label="${escape(what.join(", "))}"`;
}

// What each place's click does, from the targets.
function clickMap(diagram) {
  const direct = new Map(); // place -> targets one click on it plays
  const starts = new Set(); // places a move starts from
  const reachable = new Set(); // places the selected place's moves go to
  for (const target of diagram.targets) {
    if (target.fromPlace) {
      starts.add(target.fromPlace);
      if (target.fromPlace === selection.from) target.toPlaces.forEach((id) => reachable.add(id));
    } else {
      for (const id of target.toPlaces) direct.set(id, [...(direct.get(id) || []), target]);
    }
  }
  return { direct, starts, reachable, highlights: new Set(diagram.highlights) };
}

// ------------------------------------------------------------------ kinds

function grid(diagram, clicks, flipped) {
  const size = 10;
  const margin = diagram.rowLabels.length ? 4 : 0;
  const bottom = diagram.columnLabels.length ? 4 : 0;
  const order = (n, i) => (flipped ? n - 1 - i : i);
  let body = "";
  const centers = new Map();
  for (const place of diagram.places) {
    const x = margin + order(diagram.columns, place.column) * size;
    const y = order(diagram.rows, place.row) * size;
    centers.set(place.id, { x: x + size / 2, y: y + size / 2, r: size / 2 });
    const shade = diagram.checkered ? ((place.row + place.column) % 2 ? " dark" : " light") : "";
    body += `<g ${placeAttributes(place, clicks)}><rect class="cell${shade}" x="${x}" y="${y}" width="${size}" height="${size}"/>`;
    body += piece(diagram, place, x + size / 2, y + size / 2, size);
    if (place.label) body += `<text class="label corner" x="${x + 0.8}" y="${y + 2.2}">${escape(place.label)}</text>`;
    if (clicks.reachable.has(place.id)) body += `<circle class="dot" cx="${x + size / 2}" cy="${y + size / 2}" r="1.4"/>`;
    body += "</g>";
  }
  body += blockLines(diagram, margin, size);
  diagram.columnLabels.forEach((label, column) => {
    const x = margin + order(diagram.columns, column) * size + size / 2;
    body += `<text class="label" x="${x}" y="${diagram.rows * size + 3}">${escape(label)}</text>`;
  });
  diagram.rowLabels.forEach((label, row) => {
    body += `<text class="label" x="${margin / 2}" y="${order(diagram.rows, row) * size + size / 2 + 1}">${escape(label)}</text>`;
  });
  return { body, width: margin + diagram.columns * size, height: diagram.rows * size + bottom, centers };
}

// A grid's heavier lines between its blocks of cells (sudoku's boxes), and around it. The
// blocks divide the grid, so a flipped board has its lines in the same places.
function blockLines(diagram, margin, size) {
  const { blockRows, blockColumns, rows, columns } = diagram;
  if (!blockRows && !blockColumns) return "";
  const right = margin + columns * size;
  const bottom = rows * size;
  let lines = "";
  for (let row = 0; blockRows && row <= rows; row += blockRows) {
    lines += `<line class="block-line" x1="${margin}" y1="${row * size}" x2="${right}" y2="${row * size}"/>`;
  }
  for (let column = 0; blockColumns && column <= columns; column += blockColumns) {
    const x = margin + column * size;
    lines += `<line class="block-line" x1="${x}" y1="0" x2="${x}" y2="${bottom}"/>`;
  }
  return `<g aria-hidden="true">${lines}</g>`;
}

function hexagons(diagram, clicks, flipped) {
  const s = 1; // hexagon radius
  const w = Math.sqrt(3) * s;
  const margin = 2;
  const n = diagram.rows;
  const m = diagram.columns;
  const at = (row, column) => (flipped ? [n - 1 - row, m - 1 - column] : [row, column]);
  const center = (row, column) => [margin + w / 2 + (column + row / 2) * w, margin + s + row * 1.5 * s];
  const corner = (x, y, k) => {
    const angle = (Math.PI / 180) * (60 * k - 30);
    return [x + s * Math.cos(angle), y + s * Math.sin(angle)];
  };
  let body = "";
  const [x0, y0] = center(0, 0);
  const [x1, y1] = center(0, m - 1);
  const [x2, y2] = center(n - 1, 0);
  const [x3, y3] = center(n - 1, m - 1);
  const edges = flipped ? [2, 3, 0, 1].map((k) => diagram.edges[k]) : diagram.edges;
  const edge = (k, xa, ya, xb, yb) => {
    const owner = edges[k];
    if (owner === undefined || owner < 0) return "";
    const line = `x1="${xa}" y1="${ya}" x2="${xb}" y2="${yb}"`;
    return `<line class="edge-outline" ${line}/><line class="edge" ${line} stroke="${colorOf(diagram, owner)}"/>`;
  };
  body += edge(0, x0 - w / 2, y0 - s * 1.1, x1 + w / 2, y1 - s * 1.1);
  body += edge(1, x1 + w * 0.75, y1 - s * 0.4, x3 + w * 0.75, y3 + s * 0.4);
  body += edge(2, x2 - w / 2, y2 + s * 1.1, x3 + w / 2, y3 + s * 1.1);
  body += edge(3, x0 - w * 0.75, y0 - s * 0.4, x2 - w * 0.75, y2 + s * 0.4);
  const centers = new Map();
  for (const place of diagram.places) {
    const [x, y] = center(...at(place.row, place.column));
    centers.set(place.id, { x, y, r: s });
    const points = [0, 1, 2, 3, 4, 5].map((k) => corner(x, y, k).map((v) => v.toFixed(3)).join(",")).join(" ");
    const fill = place.piece ? ` fill="${colorOf(diagram, place.owner)}"` : "";
    body += `<g ${placeAttributes(place, clicks)}><polygon class="hexagon${place.piece ? " taken" : ""}" points="${points}"${fill}/><title>${escape(place.id)}</title></g>`;
  }
  diagram.columnLabels.forEach((label, column) => {
    const [x, y] = center(...at(0, column));
    body += `<text class="label small" x="${x}" y="${flipped ? y + s * 1.9 : y - s * 1.6}">${escape(label)}</text>`;
  });
  diagram.rowLabels.forEach((label, row) => {
    const [x, y] = center(...at(row, 0));
    body += `<text class="label small" x="${flipped ? x + w * 1.15 : x - w * 1.15}" y="${y + 0.35}">${escape(label)}</text>`;
  });
  const [xe] = center(n - 1, m - 1);
  return scaled(body, 5, xe + w / 2 + margin, margin * 2 + s * 2 + (n - 1) * 1.5 * s, centers);
}

function points(diagram, clicks) {
  const pw = 4; // a point's width
  const height = 44;
  const half = Math.floor(diagram.columns / 2);
  const xOf = (column) => (column < half ? column * pw : column * pw + pw); // the bar between
  let body = `<rect class="table" x="0" y="0" width="${(diagram.columns + 1) * pw}" height="${height}"/>`;
  body += `<rect class="bar" x="${half * pw}" y="0" width="${pw}" height="${height}"/>`;
  const centers = new Map();
  const shift = 3; // the board's offset down, room for the labels above it
  for (const place of diagram.places) {
    const top = place.row === 0;
    const x = xOf(place.column);
    centers.set(place.id, { x: x + pw / 2, y: shift + height * (top ? 0.21 : 0.79), r: pw / 2 });
    const tip = top ? height * 0.42 : height * 0.58;
    const base = top ? 0 : height;
    const shade = place.column % 2 ? "odd" : "even";
    body += `<g ${placeAttributes(place, clicks)}><polygon class="point ${shade}" points="${x},${base} ${x + pw},${base} ${x + pw / 2},${tip}"/>`;
    const count = Math.max(place.piece ? 1 : 0, place.count);
    for (let k = 0; k < Math.min(count, 5); k++) {
      const cy = top ? 2 + k * 3.6 : height - 2 - k * 3.6;
      body += piece(diagram, { ...place, count: 0 }, x + pw / 2, cy, 4.2);
    }
    if (count > 5) {
      const cy = top ? 2 + 4 * 3.6 : height - 2 - 4 * 3.6;
      body += `<text class="count" x="${x + pw / 2}" y="${cy + 0.6}" font-size="1.8">${count}</text>`;
    }
    if (place.label) body += `<text class="label tiny" x="${x + pw / 2}" y="${top ? -0.6 : height + 2.6}">${escape(place.label)}</text>`;
    body += "</g>";
  }
  return scaled(`<g transform="translate(0 ${shift})">${body}</g>`, 2.5, (diagram.columns + 1) * pw, height + 6, centers);
}

function heaps(diagram, clicks) {
  const size = 4;
  let body = "";
  diagram.rowLabels.forEach((label, row) => {
    body += `<text class="label heap" x="2" y="${row * size * 2 + size * 1.2}">${escape(label)}</text>`;
  });
  const centers = new Map();
  for (const place of diagram.places) {
    const x = 6 + place.column * size * 0.9 + size / 2;
    const y = place.row * size * 2 + size;
    centers.set(place.id, { x, y, r: size / 2 });
    body += `<g ${placeAttributes(place, clicks)}><rect class="cell plain" x="${x - size * 0.45}" y="${y - size}" width="${size * 0.9}" height="${size * 2}"/>`;
    body += piece(diagram, place, x, y, size * 2) + "</g>";
  }
  return { body, width: 8 + diagram.columns * size * 0.9, height: diagram.rows * size * 2 + 1, centers };
}

// A board drawn in its own units, scaled by `factor` to those of a grid's cell of 10; its
// places' centres (`centers`: id -> {x, y, r}, r about half a place) scaled with it.
function scaled(body, factor, width, height, centers) {
  const scale = ({ x, y, r }) => ({ x: x * factor, y: y * factor, r: r * factor });
  return {
    body: `<g transform="scale(${factor})">${body}</g>`,
    width: width * factor,
    height: height * factor,
    centers: new Map([...centers].map(([id, center]) => [id, scale(center)])),
  };
}

function panel() {
  return { body: "", width: 100, height: 0, centers: new Map() };
}

const KINDS = { GRID: grid, HEX: hexagons, POINTS: points, HEAPS: heaps, PANEL: panel };

// ------------------------------------------------------------------ gauges and dice

const PIPS = { 1: [[5, 5]], 2: [[3, 3], [7, 7]], 3: [[3, 3], [5, 5], [7, 7]], 4: [[3, 3], [7, 3], [3, 7], [7, 7]], 5: [[3, 3], [7, 3], [5, 5], [3, 7], [7, 7]], 6: [[3, 3], [7, 3], [3, 5], [7, 5], [3, 7], [7, 7]] };

function die(x, y, value, size) {
  const k = size / 10;
  let body = `<rect class="die" x="${x}" y="${y}" width="${size}" height="${size}" rx="${1.5 * k}"/>`;
  for (const [px, py] of PIPS[value] || []) {
    body += `<circle class="pip" cx="${x + px * k}" cy="${y + py * k}" r="${0.9 * k}"/>`;
  }
  return body;
}

// The dice and gauges below a board `width` wide, from `top` down.
function extras(diagram, width, top) {
  const row = width / 20; // a gauge's line: readable (a track over 8 px high) on a phone
  let body = "";
  let y = top + row * 0.4;
  if (diagram.dice.length) {
    diagram.dice.forEach((value, index) => (body += `<g class="dice">${die(index * row * 1.6, y, value, row * 1.3)}</g>`));
    y += row * 1.8;
  }
  for (const gauge of diagram.gauges) {
    const value = Number(gauge.value);
    const maximum = Number(gauge.maximum);
    const color = colorOf(diagram, gauge.owner);
    body += `<g class="gauge">`;
    if (gauge.owner >= 0) body += `<circle class="shape" cx="${row * 0.35}" cy="${y + row * 0.5}" r="${row * 0.3}" fill="${color}"/>`;
    body += `<text class="label left" x="${row}" y="${y + row * 0.7}" font-size="${row * 0.7}">${escape(gauge.label)}</text>`;
    if (maximum > 0) {
      const share = Math.max(0, Math.min(1, value / maximum));
      body += `<rect class="track" x="${width * 0.3}" y="${y + row * 0.15}" width="${width * 0.5}" height="${row * 0.7}" rx="${row * 0.15}"/>`;
      body += `<rect class="progress" x="${width * 0.3}" y="${y + row * 0.15}" width="${width * 0.5 * share}" height="${row * 0.7}" rx="${row * 0.15}" fill="${color}"/>`;
    }
    const text = maximum > 0 ? `${value} / ${maximum}` : String(value);
    body += `<text class="label left value" x="${width * (maximum > 0 ? 0.82 : 0.3)}" y="${y + row * 0.7}" font-size="${row * 0.7}">${escape(text)}</text></g>`;
    y += row;
  }
  return { body, height: y - top };
}

// ------------------------------------------------------------------ drawing and clicks

function buttons(position, diagram) {
  if (position.toMove === -1) return ""; // the dice: the page's roll button
  const targeted = new Set((diagram ? diagram.targets : []).map((target) => target.move));
  const labels = position.legalMoveLabels || [];
  const free = position.legalMoves.map((move, i) => [move, labels[i] || move]).filter(([move]) => !targeted.has(move));
  if (!free.length) return "";
  const html = free.map(([move, label]) => `<button type="button" class="move-button" data-move="${escape(move)}">${escape(label)}</button>`);
  return `<div class="move-buttons">${html.join("")}</div>`;
}

function choices(position) {
  if (!selection.choices) return "";
  const labelOf = new Map(position.legalMoves.map((move, i) => [move, (position.legalMoveLabels || [])[i] || move]));
  const html = selection.choices.map((move) => `<button type="button" class="choice" data-choice="${escape(move)}">${escape(labelOf.get(move))}</button>`);
  return `<div class="choices" role="dialog" aria-label="choose the move">${html.join("")}<button type="button" data-choice="">cancel</button></div>`;
}

function text(container, position, context) {
  container.dataset.kind = "text";
  container.innerHTML = `<pre class="text-board">${escape(position.board)}</pre>${buttons(position, null)}`;
  container.onclick = (event) => {
    const button = event.target.closest(".move-button[data-move]");
    if (button && context.enabled) context.play(button.dataset.move);
  };
}

export function draw(container, position, context) {
  const diagram = position.diagram;
  const kind = diagram && KINDS[diagram.kind];
  if (!kind) return text(container, position, context);
  const clicks = clickMap(diagram);
  const board = kind(diagram, clicks, Boolean(context.flipped));
  const width = Math.max(MIN_WIDTH, board.width); // a small board is not drawn huge
  const below = extras(diagram, width, board.height);
  const height = board.height + below.height;
  const label = `${diagram.kind.toLowerCase()} board`;
  const overlay = `<g class="overlay" aria-hidden="true"></g>`; // the analysis' marks (overlay.js)
  const centred = `<g transform="translate(${(width - board.width) / 2} 0)">${board.body}${overlay}</g>`;
  const svg = `<svg xmlns="${SVG}" viewBox="-1 -1 ${width + 2} ${height + 2}" role="group" aria-label="${label}">${centred}${below.body}</svg>`;
  container.dataset.kind = diagram.kind.toLowerCase();
  const focused = container.contains(document.activeElement) ? document.activeElement.closest("[data-place]") : null;
  container.innerHTML = svg + choices(position) + buttons(position, diagram);
  container.dataset.flipped = context.flipped ? "yes" : "no";
  container.layout = { position, diagram, centers: board.centers, pieces: occupied(diagram) };
  drawMarks(container);
  rove(container);
  keepFocus(container, focused && focused.dataset.place);
  container.onkeydown = (event) => {
    const place = event.target.closest("[data-place]");
    if (!place) return;
    if (STEPS[event.key] && walking(event)) {
      event.preventDefault();
      event.stopPropagation(); // the arrows walk the places here, not the line
      step(container, place.dataset.place, STEPS[event.key], Boolean(context.flipped));
      return;
    }
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    place.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  };
  container.onclick = (event) => {
    const focused = event.target.closest("[data-place]");
    if (focused) roveTo(container, focused.dataset.place); // a clicked place is the tab stop
    if (!context.enabled) return;
    const choice = event.target.closest("[data-choice]");
    if (choice) {
      resetSelection();
      if (choice.dataset.choice) context.play(choice.dataset.choice);
      else draw(container, position, context);
      return;
    }
    const button = event.target.closest(".move-button[data-move]");
    if (button) return context.play(button.dataset.move);
    const place = event.target.closest("[data-place]");
    if (place) clicked(place.dataset.place, container, position, context);
  };
}

const occupied = (diagram) => new Set(diagram.places.filter((place) => place.piece).map((place) => place.id));

// ------------------------------------------------------------------ the keyboard on the board

// The board is one tab stop (a roving tabindex): the place last clicked or reached by the
// arrow keys, else the selected place, else the first a click does something on, else the
// first. Once the board has the keyboard's focus, the arrow keys move it between
// neighbouring places (row and column as the board is drawn: flipped, → goes to the
// previous column); Enter and Space click.
let rover = null; // the id of the place that is the board's tab stop

const STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

// The arrows walk the places when the keyboard brought the focus to the board (Tab, the
// arrows); a place focused by a click leaves them to the line. `focusedBy` is how the focus
// came to a place: by the last input before it, kept over the board's redraws (keepFocus).
let lastInput = "keyboard";
let focusedBy = "keyboard";
document.addEventListener("keydown", () => (lastInput = "keyboard"), true);
document.addEventListener("pointerdown", () => (lastInput = "pointer"), true);
document.addEventListener("focusin", (event) => {
  if (event.target instanceof Element && event.target.closest("[data-place]")) focusedBy = lastInput;
});

const walking = (event) => focusedBy === "keyboard" && !event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey;

function placeElements(container) {
  return [...container.querySelectorAll(".place[data-place]")];
}

function rove(container) {
  const places = placeElements(container);
  const stop =
    places.find((element) => element.dataset.place === rover) ||
    places.find((element) => element.classList.contains("selected")) ||
    places.find((element) => element.classList.contains("legal")) ||
    places[0];
  for (const element of places) element.setAttribute("tabindex", element === stop ? "0" : "-1");
}

function roveTo(container, id) {
  rover = id;
  rove(container);
}

// From the place `id` one step of [rows, columns] (as drawn) to the place there, if any.
function step(container, id, [rows, columns], flipped) {
  const { diagram } = container.layout;
  const sign = flipped ? -1 : 1;
  const from = diagram.places.find((place) => place.id === id);
  if (!from) return;
  const to = diagram.places.find((place) => place.row === from.row + sign * rows && place.column === from.column + sign * columns);
  if (!to) return;
  roveTo(container, to.id);
  placeElements(container).find((element) => element.dataset.place === to.id).focus({ preventScroll: true });
}

// After a redraw, the focus goes back to the place that had it (its new element), or to the
// first choice where the page asks which move.
function keepFocus(container, id) {
  if (id === null) return;
  const choice = container.querySelector(".choices button");
  const place = [...container.querySelectorAll("[data-place]")].find((element) => element.dataset.place === id);
  const target = choice || place;
  const by = focusedBy;
  if (target) target.focus({ preventScroll: true });
  focusedBy = by; // the same focus, on the redrawn place
}

// A click on a place: play the move it completes, offer a choice, or select it.
function clicked(id, container, position, context) {
  const targets = position.diagram.targets;
  let moves = selection.from ? targets.filter((t) => t.fromPlace === selection.from && t.toPlaces.includes(id)) : [];
  if (!moves.length) moves = targets.filter((t) => !t.fromPlace && t.toPlaces.includes(id));
  if (moves.length === 1) {
    resetSelection();
    context.play(moves[0].move);
    return;
  }
  if (moves.length > 1) {
    selection.choices = moves.map((t) => t.move);
  } else {
    const starts = targets.some((t) => t.fromPlace === id);
    selection.from = starts && id !== selection.from ? id : null;
    selection.choices = null;
  }
  draw(container, position, context);
}
