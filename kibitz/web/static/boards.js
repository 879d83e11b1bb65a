// Boards drawn as SVG from the gateway's diagrams (kibitz/web/diagrams.py). Every clickable
// element carries the move it plays in `data-move`; chess squares carry `data-square`.
//
// draw(container, position, context): `position` is the gateway's describe answer,
// context = { play(move), enabled, lastMove, flipped }.

import { escapeHtml as escape } from "./html.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(width, height, body, label) {
  return `<svg xmlns="${SVG}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escape(label)}">${body}</svg>`;
}

function attach(container, context, html) {
  container.innerHTML = html;
  container.onclick = (event) => {
    const target = event.target.closest("[data-move]");
    if (target && context.enabled && !target.classList.contains("disabled")) {
      context.play(target.dataset.move);
    }
  };
}

// One button per legal move (games whose moves are not a click on one spot).
function moveButtons(moves) {
  const buttons = moves.map((m) => `<button type="button" class="move-button" data-move="${escape(m)}">${escape(m)}</button>`);
  return `<div class="move-buttons">${buttons.join("")}</div>`;
}

// ------------------------------------------------------------------ Connect Four

function connect4(container, position, context) {
  const { rows } = position.diagram;
  const legal = new Set(position.legalMoves);
  const size = 10;
  let body = `<rect class="c4-frame" x="0" y="0" width="${7 * size}" height="${6 * size}" rx="2"/>`;
  for (let c = 0; c < 7; c++) {
    const move = String(c + 1);
    const state = legal.has(move) ? "legal" : "disabled";
    body += `<g class="column ${state}" data-move="${move}"><rect x="${c * size}" y="0" width="${size}" height="${6 * size}" fill="transparent"/>`;
    for (let r = 0; r < 6; r++) {
      const cell = rows[r][c];
      const kind = cell === "x" ? "first" : cell === "o" ? "second" : "empty";
      body += `<circle class="disc ${kind}" cx="${c * size + size / 2}" cy="${r * size + size / 2}" r="${size * 0.4}"/>`;
    }
    body += "</g>";
  }
  for (let c = 0; c < 7; c++) {
    body += `<text class="label" x="${c * size + size / 2}" y="${6 * size + 4.5}">${c + 1}</text>`;
  }
  attach(container, context, svg(7 * size, 6 * size + 6, body, "Connect Four board"));
}

// ------------------------------------------------------------------ tic-tac-toe

function tictactoe(container, position, context) {
  const { rows } = position.diagram;
  const legal = new Set(position.legalMoves);
  const size = 10;
  let body = "";
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      const name = "abc"[c] + String(3 - r);
      const cell = rows[r][c];
      const x = c * size;
      const y = r * size;
      const state = legal.has(name) ? "legal" : "disabled";
      body += `<g class="cell ${state}" data-move="${name}"><rect class="ttt-cell" x="${x + 0.3}" y="${y + 0.3}" width="${size - 0.6}" height="${size - 0.6}"/>`;
      if (cell === "x") {
        body += `<path class="mark first" d="M${x + 2.5} ${y + 2.5}L${x + 7.5} ${y + 7.5}M${x + 7.5} ${y + 2.5}L${x + 2.5} ${y + 7.5}"/>`;
      } else if (cell === "o") {
        body += `<circle class="mark second" cx="${x + 5}" cy="${y + 5}" r="2.7"/>`;
      }
      body += "</g>";
    }
  }
  attach(container, context, svg(3 * size, 3 * size, body, "tic-tac-toe board"));
}

// ------------------------------------------------------------------ Hex

function hex(container, position, context) {
  const { rows, size } = position.diagram;
  const legal = new Set(position.legalMoves);
  const s = 1; // hexagon radius
  const w = Math.sqrt(3) * s;
  const margin = 2;
  const center = (c, r) => [margin + w / 2 + (c + r / 2) * w, margin + s + r * 1.5 * s];
  const corner = (x, y, k) => {
    const angle = (Math.PI / 180) * (60 * k - 30);
    return [x + s * Math.cos(angle), y + s * Math.sin(angle)];
  };
  let body = "";
  // the edges: Black joins top and bottom, White left and right
  const [x0, y0] = center(0, 0);
  const [x1, y1] = center(size - 1, 0);
  const [x2, y2] = center(0, size - 1);
  const [x3, y3] = center(size - 1, size - 1);
  body += `<line class="edge black" x1="${x0 - w / 2}" y1="${y0 - s * 1.1}" x2="${x1 + w / 2}" y2="${y1 - s * 1.1}"/>`;
  body += `<line class="edge black" x1="${x2 - w / 2}" y1="${y2 + s * 1.1}" x2="${x3 + w / 2}" y2="${y3 + s * 1.1}"/>`;
  body += `<line class="edge white" x1="${x0 - w * 0.75}" y1="${y0 - s * 0.4}" x2="${x2 - w * 0.75}" y2="${y2 + s * 0.4}"/>`;
  body += `<line class="edge white" x1="${x1 + w * 0.75}" y1="${y1 - s * 0.4}" x2="${x3 + w * 0.75}" y2="${y3 + s * 0.4}"/>`;
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      const name = String.fromCharCode(97 + c) + String(r + 1);
      const [x, y] = center(c, r);
      const points = [0, 1, 2, 3, 4, 5].map((k) => corner(x, y, k).map((v) => v.toFixed(3)).join(",")).join(" ");
      const cell = rows[r][c];
      const stone = cell === "b" ? "black" : cell === "w" ? "white" : "empty";
      const state = legal.has(name) ? "legal" : "disabled";
      const last = context.lastMove === name ? " last" : "";
      body += `<polygon class="hex ${stone} ${state}${last}" points="${points}" data-move="${name}"><title>${name}</title></polygon>`;
    }
  }
  for (let c = 0; c < size; c++) {
    const [x, y] = center(c, 0);
    body += `<text class="label small" x="${x}" y="${y - s * 1.6}">${String.fromCharCode(97 + c)}</text>`;
  }
  for (let r = 0; r < size; r++) {
    const [x, y] = center(0, r);
    body += `<text class="label small" x="${x - w * 1.15}" y="${y + 0.35}">${r + 1}</text>`;
  }
  const [xe] = center(size - 1, size - 1);
  const width = xe + w / 2 + margin;
  const height = margin * 2 + s * 2 + (size - 1) * 1.5 * s;
  let html = svg(width, height, body, `Hex board ${size}x${size}`);
  if (legal.has("swap")) {
    html += `<p><button type="button" class="move-button" data-move="swap">swap</button></p>`;
  }
  attach(container, context, html);
}

// ------------------------------------------------------------------ Nim

function nim(container, position, context) {
  const { heaps } = position.diagram;
  const legal = new Set(position.legalMoves);
  const longest = Math.max(1, ...heaps);
  const size = 4;
  let body = "";
  heaps.forEach((count, h) => {
    const y = h * size * 2.2 + 1;
    body += `<text class="label nim-label" x="2" y="${y + size * 1.1}">${h + 1}</text>`;
    for (let k = 0; k < count; k++) {
      const move = `${h + 1}:${count - k}`;
      const state = legal.has(move) ? "legal" : "disabled";
      body += `<rect class="stick ${state}" data-move="${move}" x="${6 + k * size * 0.9}" y="${y}" width="${size * 0.5}" height="${size * 1.7}" rx="0.8"><title>take ${count - k} from heap ${h + 1}</title></rect>`;
    }
  });
  const width = 8 + longest * size * 0.9;
  const height = heaps.length * size * 2.2 + 1;
  attach(container, context, svg(width, height, body, "Nim heaps"));
}

// ------------------------------------------------------------------ Pig

const PIPS = { 1: [[5, 5]], 2: [[3, 3], [7, 7]], 3: [[3, 3], [5, 5], [7, 7]], 4: [[3, 3], [7, 3], [3, 7], [7, 7]], 5: [[3, 3], [7, 3], [5, 5], [3, 7], [7, 7]], 6: [[3, 3], [7, 3], [3, 5], [7, 5], [3, 7], [7, 7]] };

function die(x, y, value, size = 10) {
  const k = size / 10;
  let body = `<rect class="die" x="${x}" y="${y}" width="${size}" height="${size}" rx="${1.5 * k}"/>`;
  for (const [px, py] of PIPS[value] || []) {
    body += `<circle class="pip" cx="${x + px * k}" cy="${y + py * k}" r="${0.9 * k}"/>`;
  }
  return body;
}

function pig(container, position, context) {
  const d = position.diagram;
  let body = "";
  for (const player of [0, 1]) {
    const y = 4 + player * 14;
    const share = Math.min(1, d.scores[player] / d.goal);
    const active = d.toMove === player ? " active" : "";
    body += `<text class="label left${active}" x="1" y="${y + 4}">player ${player + 1}${d.toMove === player ? " ◀" : ""}</text>`;
    body += `<rect class="track" x="28" y="${y}" width="60" height="6" rx="1"/>`;
    body += `<rect class="progress p${player}" x="28" y="${y}" width="${60 * share}" height="6" rx="1"/>`;
    body += `<text class="label left" x="90" y="${y + 4.5}">${d.scores[player]} / ${d.goal}</text>`;
  }
  body += `<text class="label left" x="1" y="38">turn total +${d.turnTotal}${d.rolling ? " (the die is to be rolled)" : ""}</text>`;
  body += `<text class="label left small" x="1" y="44">move ${d.moves} of ${d.horizon}</text>`;
  const lastDie = /^[1-6]$/.test(context.lastMove || "") ? Number(context.lastMove) : 0;
  if (lastDie) body += die(98, 28, lastDie);
  attach(container, context, svg(110, 46, body, "Pig scores") + moveButtons(position.legalMoves));
}

// ------------------------------------------------------------------ chess

const GLYPHS = { k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };

const chessState = { selected: null, promotion: null };

function chessBoard(container, position, context) {
  const { rows, check } = position.diagram;
  const flipped = Boolean(context.flipped);
  const legal = position.legalMoves;
  const from = chessState.selected;
  const targets = new Set(from ? legal.filter((m) => m.startsWith(from)).map((m) => m.slice(2, 4)) : []);
  const last = context.lastMove && /^[a-h][1-8][a-h][1-8]/.test(context.lastMove) ? [context.lastMove.slice(0, 2), context.lastMove.slice(2, 4)] : [];
  const size = 10;
  let body = "";
  for (let r = 0; r < 8; r++) {
    for (let c = 0; c < 8; c++) {
      const file = flipped ? 7 - c : c;
      const rank = flipped ? r : 7 - r; // 0 = rank 1
      const name = "abcdefgh"[file] + String(rank + 1);
      const piece = rows[7 - rank][file];
      const x = c * size;
      const y = r * size;
      const shade = (file + rank) % 2 === 0 ? "dark" : "light";
      const marks = [
        name === from ? "selected" : "",
        last.includes(name) ? "last" : "",
        name === check ? "check" : "",
      ].join(" ");
      body += `<g class="square ${shade} ${marks}" data-square="${name}"><rect x="${x}" y="${y}" width="${size}" height="${size}"/>`;
      if (piece !== ".") {
        const white = piece === piece.toUpperCase();
        body += `<text class="piece ${white ? "white" : "black"}" x="${x + size / 2}" y="${y + size * 0.8}">${GLYPHS[piece.toLowerCase()]}</text>`;
      }
      if (targets.has(name)) body += `<circle class="target" cx="${x + size / 2}" cy="${y + size / 2}" r="1.4"/>`;
      if (c === 0) body += `<text class="coord" x="${x + 0.8}" y="${y + 2.4}">${rank + 1}</text>`;
      if (r === 7) body += `<text class="coord" x="${x + size - 1.8}" y="${y + size - 0.6}">${"abcdefgh"[file]}</text>`;
      body += "</g>";
    }
  }
  let html = svg(8 * size, 8 * size, body, "chess board");
  if (chessState.promotion) {
    const pieces = ["q", "r", "b", "n"];
    html += `<div class="promotion" role="dialog" aria-label="promote to">${pieces
      .map((p) => `<button type="button" class="promote" data-promote="${p}" title="${p}">${GLYPHS[p]}</button>`)
      .join("")}<button type="button" data-promote="">cancel</button></div>`;
  }
  container.innerHTML = html;
  container.onclick = (event) => {
    const promote = event.target.closest("[data-promote]");
    if (promote) {
      const move = chessState.promotion + promote.dataset.promote;
      chessState.promotion = null;
      chessState.selected = null;
      if (promote.dataset.promote && legal.includes(move)) context.play(move);
      else chessBoard(container, position, context);
      return;
    }
    const square = event.target.closest("[data-square]");
    if (!square || !context.enabled) return;
    const name = square.dataset.square;
    if (from && targets.has(name)) {
      const moves = legal.filter((m) => m.startsWith(from + name));
      if (moves.length === 1) {
        chessState.selected = null;
        context.play(moves[0]);
      } else {
        chessState.promotion = from + name;
        chessBoard(container, position, context);
      }
      return;
    }
    chessState.selected = legal.some((m) => m.startsWith(name)) && name !== from ? name : null;
    chessBoard(container, position, context);
  };
}

// ------------------------------------------------------------------ backgammon

function backgammon(container, position, context) {
  const d = position.diagram;
  const mover = d.toMove;
  // 12 points per side, a bar in the middle and a tray for borne-off checkers on the right
  const pw = 4;
  const height = 44;
  const barX = 6 * pw;
  const xOf = (column) => (column < 6 ? column * pw : column * pw + pw); // column 0-11 left to right
  let body = `<rect class="bg-board" x="0" y="0" width="${13 * pw}" height="${height}"/>`;
  body += `<rect class="bg-bar" x="${barX}" y="0" width="${pw}" height="${height}"/>`;
  body += `<rect class="bg-tray" x="${13 * pw + 0.5}" y="0" width="${pw + 1}" height="${height}"/>`;
  for (let n = 1; n <= 24; n++) {
    const top = n >= 13;
    const column = top ? n - 13 : 12 - n;
    const x = xOf(column);
    const tip = top ? height * 0.42 : height * 0.58;
    const base = top ? 0 : height;
    const shade = n % 2 ? "odd" : "even";
    body += `<polygon class="bg-point ${shade}" points="${x},${base} ${x + pw},${base} ${x + pw / 2},${tip}"/>`;
    const label = mover === 1 ? 25 - n : n;
    body += `<text class="label tiny" x="${x + pw / 2}" y="${top ? -0.6 : height + 2.6}">${label}</text>`;
    const count = d.points[n - 1];
    const owner = count > 0 ? 0 : 1;
    for (let k = 0; k < Math.min(Math.abs(count), 5); k++) {
      const cy = top ? 2 + k * 3.6 : height - 2 - k * 3.6;
      body += `<circle class="checker p${owner}" cx="${x + pw / 2}" cy="${cy}" r="1.7"/>`;
    }
    if (Math.abs(count) > 5) {
      const cy = top ? 2 + 4 * 3.6 : height - 2 - 4 * 3.6;
      body += `<text class="label tiny count p${owner}" x="${x + pw / 2}" y="${cy + 0.8}">${Math.abs(count)}</text>`;
    }
  }
  for (const player of [0, 1]) {
    const n = d.bar[player];
    for (let k = 0; k < Math.min(n, 3); k++) {
      const cy = player === 0 ? height / 2 + 4 + k * 3.6 : height / 2 - 4 - k * 3.6;
      body += `<circle class="checker p${player}" cx="${barX + pw / 2}" cy="${cy}" r="1.7"/>`;
    }
    if (n) body += `<text class="label tiny" x="${barX + pw / 2}" y="${player === 0 ? height / 2 + 1.5 : height / 2 - 0.5}">${n}</text>`;
    const off = d.off[player];
    body += `<text class="label tiny" x="${13 * pw + 3}" y="${player === 0 ? height - 3 : 4}">off ${off}</text>`;
  }
  if (d.dice) {
    const dx = mover === 0 ? 7 * pw + 4 : 4;
    body += die(dx, height / 2 - 3, d.dice[0], 6) + die(dx + 8, height / 2 - 3, d.dice[1], 6);
  }
  const who = `player ${mover + 1} (${mover === 0 ? "light" : "dark"})`;
  body += `<text class="label tiny left" x="0.5" y="${height + 6}">${who} ${d.dice ? "to play" : "to roll"} · pips: light ${d.pips[0]}, dark ${d.pips[1]}</text>`;
  const board = svg(14 * pw + 1.5, height + 10, `<g transform="translate(0 3)">${body}</g>`, "backgammon board");
  attach(container, context, board + moveButtons(position.legalMoves));
}

// ------------------------------------------------------------------ any other game

function text(container, position) {
  container.innerHTML = `<pre class="text-board">${escape(position.board)}</pre>`;
  container.onclick = null;
}

const BOARDS = {
  connect4,
  tictactoe,
  hex,
  nim,
  "misere-nim": nim,
  pig,
  chess: chessBoard,
  backgammon,
};

export function draw(container, position, context) {
  const board = position.diagram ? BOARDS[position.diagram.kind] : null;
  container.dataset.kind = board ? position.diagram.kind : "text";
  (board || text)(container, position, context);
}

export function resetSelection() {
  chessState.selected = null;
  chessState.promotion = null;
}
