// The move list: the tree of moves as PGN and lichess write it, the main line with each
// variation inline in parentheses after the move it replaces ("1. e4 e5 (1... c5 2. Nf3)
// 2. Nf3"), numbered; every move a focusable button that goes there.

import { app } from "./app.js";
import { escapeHtml } from "./html.js";
import { moveNote } from "./notes.js";
import { pathTo } from "./tree.js";

let shown = new Map(); // the nodes on the list, by id (what a click names)

export function nodeById(id) {
  return shown.get(id);
}

export function renderMoveTree(list) {
  const hadFocus = list.contains(document.activeElement) && document.activeElement !== list;
  shown = new Map();
  const line = new Set(app.line);
  const context = { line, cursor: app.cursor, offset: plyOffset() };
  list.innerHTML = lineHtml(app.root, 0, context, true);
  list.dataset.count = String(app.cursor);
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
  if (hadFocus) (current || list).focus({ preventScroll: true });
}

// The moves from `parent` on along its main line, each followed by its alternatives (the
// other moves from the same position) in parentheses. At the top (`top`) every move and
// every variation is an item of the list.
function lineHtml(parent, ply, context, top) {
  const parts = [];
  let forced = false; // a number after a variation (the first move has its own)
  for (let at = parent; at.children.length; at = at.children[0], ply += 1) {
    const [main, ...others] = at.children;
    parts.push(moveHtml(main, ply, context, forced, top));
    forced = others.length > 0;
    for (const other of others) {
      const rest = lineHtml(other, ply + 1, context, false);
      const inner = moveHtml(other, ply, context, true, false) + (rest ? ` ${rest}` : "");
      parts.push(top ? `<li class="variation">(${inner})</li>` : `<span class="variation">(${inner})</span>`);
    }
  }
  return parts.join(top ? "" : " ");
}

function moveHtml(node, ply, context, forced, top) {
  shown.set(node.id, node);
  const state = node === app.node ? " current" : context.line.has(node) && ply >= context.cursor ? " future" : "";
  const number = moveNumber(node, ply, context.offset, forced);
  const label = escapeHtml(node.label || node.move);
  const numberHtml = number ? `<span class="number">${number}</span>` : "";
  const here = node === app.node;
  const move = `<span class="move${state}" role="button" tabindex="${here ? 0 : -1}"${here ? ' aria-current="step"' : ""} data-node="${node.id}">${label}</span>`;
  const comment = node.comment ? ` <span class="comment">${escapeHtml(node.comment)}</span>` : "";
  const note = moveNote(node); // the equity it lost, where its position was analysed
  const error = note ? ` <span class="error-note">${escapeHtml(note)}</span>` : "";
  if (!top) return `${numberHtml}${move}${error}${comment}`;
  return `<li class="${state.trim()}" data-ply="${ply + 1}">${numberHtml}${move}${error}${comment}</li>`;
}

// Where two players take turns (no dice): the numbering's start as a count of plies, so
// that the move of ply p is the numbering's ply offset + p: from the position's own number
// where the game numbers its moves (PositionInfo.moveNumber: a chess FEN's fullmove
// number), else from 1, with "1..." when the line starts with the second player's move.
function plyOffset() {
  const position = app.position;
  if (!position) return 0;
  const number = Number(position.moveNumber || 0);
  const offset = (number ? 2 * (number - 1) + position.toMove : position.toMove) - app.cursor;
  return !number || offset < 0 ? ((offset % 2) + 2) % 2 : offset;
}

// A move's number: "1." before the first player's moves, "1..." before the second's where
// it starts a line or follows a variation (`forced`), none else; "N." for each move where
// more or fewer than two players take turns; with chance, see chanceNumber.
function moveNumber(node, ply, offset, forced) {
  if (app.game.hasChance) return chanceNumber(node);
  if (app.game.players !== 2 || !app.position) return `${ply + 1}.`;
  const index = offset + ply;
  if (index % 2 === 1 && ply > 0 && !forced) return "";
  return `${Math.floor(index / 2) + 1}.${index % 2 ? ".." : ""}`;
}

// In a game with chance, a chance outcome (a roll) and the move after it share one number:
// a number starts at each chance outcome, and at a move that does not follow one. Whether a
// position was a chance node is known from the positions described (node.chance).
function chanceNumber(node) {
  const path = pathTo(node);
  let count = 0;
  let shares = false;
  for (let ply = 0; ply < path.length - 1; ply++) {
    shares = ply > 0 && Boolean(path[ply - 1].chance) && !path[ply].chance;
    if (!shares) count += 1;
  }
  return shares ? "" : `${count}.`;
}
