// The page: the game picker, the board, the position and its move list. Analysis, play and
// engine against engine live in analysis.js and play.js; they follow the position through
// `app.listeners`.

import { get, post } from "./api.js";
import { resetSelection } from "./boards.js";
import { drawBoard } from "./checkers.js";
import { closeAll, closeOnLeave, enginesFor, enginesOf, fillEngineSelect, optionsForm } from "./engines.js";
import { drawGraph } from "./graph.js";
import { escapeHtml, fillSelect } from "./html.js";
import { initAnalysis } from "./analysis.js";
import { initMatch } from "./match.js";
import { notePosition } from "./notes.js";
import { initPlay, initWatch } from "./play.js";
import { initRecords } from "./records.js";
import { nodeById, renderMoveTree } from "./movelist.js";
import { childFor, depth, fromRecord, lineThrough, newNode, onMainLine, pathTo, promote, removeNode, sibling } from "./tree.js";

export const $ = (id) => document.getElementById(id);

const firstRoot = newNode(null);

export const app = {
  server: 0,
  servers: [],
  games: [],
  game: null,
  start: "", // the start position, in the game's notation
  root: firstRoot, // the tree of moves (tree.js), its root the start position
  node: firstRoot, // the board's node: the position after the moves of its path
  position: null, // the gateway's describe answer for the board
  mode: "analyse",
  locked: false, // a game is running: the line may not be edited
  humanTurn: () => true, // set by play.js while a game runs
  yourSeats: () => [], // the seats you play in the running game (play.js)
  viewOf: () => null, // hidden information: the seat whose view the board shows (play.js)
  readOptions: () => ({}),
  listeners: [], // called after every change of position
  stoppers: [], // stop analysis, games: called before the game changes
  gameHooks: [], // called when a game is picked
  version: 0, // counts the changes of position
  flipped: false,

  // The line shown (tree.js: the path to the board's node, then its main line on), per ply,
  // read-only: every move in the wire's notation, as people read them (the server's labels:
  // SAN for chess), how many are played on the board, the first player's value of each
  // position (the graph), and where known whether it was a chance node (a roll).
  get line() {
    return lineThrough(this.node);
  },
  get moves() {
    return this.line.slice(1).map((node) => node.move);
  },
  get movesText() {
    return this.line.slice(1).map((node) => node.label || node.move);
  },
  get cursor() {
    return depth(this.node);
  },
  get evals() {
    return this.line.map((node) => node.eval);
  },
  get chance() {
    return this.line.map((node) => node.chance);
  },

  // A search's score of the line's position `ply`: its value for the graph, and a proven
  // result's plies for the record.
  setEval(ply, score) {
    const node = this.line[ply];
    if (!node || !score || score.firstPlayerValue === undefined) return;
    node.eval = score.firstPlayerValue;
    node.plies = score.firstPlayerPlies;
  },

  // The board's number of players: its diagram's colours where it has them (one per player:
  // Chinese checkers' position "4" has four, whatever the game's default), else the game's.
  get players() {
    const colors = this.position?.diagram?.colors || [];
    return colors.length || this.game?.players || 0;
  },

  playerName(index) {
    const names = this.game?.playerNames || [];
    return names[index] || `player ${index + 1}`;
  },

  engineChoice() {
    return { server: this.server, game: this.game.name, engine: $("engine").value, options: this.readOptions() };
  },

  // The search request for the board's position.
  request(limits) {
    return { position: this.start, moves: this.moves.slice(0, this.cursor), limits };
  },
};

// Who won a finished game (`over`: the server's GameOver) in plain words: "White wins",
// "draw", or for `you` (the seats you play, play.js) "you won" / "you lost" where you play
// one seat of two; with three players and more the winners by name, "(you)" beside yours.
// The server's reason follows in parentheses where it says more.
export function outcomeText(over, you = []) {
  const returns = (over.returns || []).map(Number);
  const reason = over.reason || "";
  if (!returns.length) return reason;
  const best = Math.max(...returns);
  const drawn = returns.every((value) => value === returns[0]);
  if (drawn) return reason.toLowerCase().startsWith("draw") ? reason : `draw (${reason})`;
  let outcome;
  if (returns.length === 2 && you.length === 1) outcome = returns[you[0]] === best ? "you won" : "you lost";
  else {
    const winners = returns.flatMap((value, player) => (value === best ? [seatName(player, you)] : []));
    outcome = `${winners.join(" and ")} ${winners.length > 1 ? "win" : "wins"}`;
  }
  if (!reason) return outcome;
  if (reason.toLowerCase().includes(outcome.toLowerCase())) return reason; // "checkmate, White wins"
  return `${outcome} (${reason})`;
}

// A player's name, "(you)" after it where it is one of the seats `you` play.
export function seatName(player, you = []) {
  return you.includes(player) ? `${app.playerName(player)} (you)` : app.playerName(player);
}

// A game's returns as a ranking, best first: each player's place (1 + the players with a
// greater return: level players share a place), name and return.
export function ranking(returns) {
  const values = returns.map(Number);
  return values
    .map((value, player) => ({ player, value, place: 1 + values.filter((other) => other > value).length }))
    .sort((a, b) => a.place - b.place || a.player - b.player);
}

export const signed = (value) => (value > 0 ? `+${Number(value.toFixed(2))}` : String(Number(value.toFixed(2))));

// A player's colour on the board (the diagram's) as a swatch before a name, "" where the
// game draws none: its colour is set by paintSwatches (the page's policy takes no inline
// style in markup).
export function swatch(player) {
  const color = (app.position?.diagram?.colors || [])[player];
  return color ? `<span class="swatch" data-color="${escapeHtml(color)}" aria-hidden="true"></span>` : "";
}

export function paintSwatches(container) {
  for (const element of container.querySelectorAll(".swatch[data-color]")) element.style.background = element.dataset.color;
}

// A finished game of three players or more: its ranking, a row per player, under the status.
function showResults(over, you) {
  const table = $("results");
  const rows = over && (over.returns || []).length > 2 ? ranking(over.returns) : [];
  table.hidden = !rows.length;
  table.querySelector("tbody").innerHTML = rows
    .map((row) => `<tr data-player="${row.player}"><td>${row.place}</td><td>${swatch(row.player)}${escapeHtml(seatName(row.player, you))}</td><td>${signed(row.value)}</td></tr>`)
    .join("");
  paintSwatches(table);
}

// ------------------------------------------------------------------ errors

// A server that cannot be reached (UNAVAILABLE) offers a retry: the page loads again
// where it never loaded, else it asks for the board's position again.
export function showError(error) {
  console.error(error);
  $("error-text").textContent = error.message || String(error);
  $("error-retry").hidden = error.code !== "UNAVAILABLE";
  $("error").hidden = false;
}

export function clearError() {
  $("error").hidden = true;
  $("error-text").textContent = "";
  $("error-retry").hidden = true;
}

async function retry() {
  clearError();
  if ($("main").dataset.ready !== "yes") await start();
  else await refresh().catch(showError);
}

// ------------------------------------------------------------------ position

// Describe the board's position (start + moves[:cursor]) and draw everything.
// An answer that comes after the board has moved on (keys pressed quickly) is dropped: the
// later change's own refresh shows its position.
export async function refresh() {
  const node = app.node;
  const answer = await describe(app.viewOf());
  if (app.node !== node) return;
  app.position = answer;
  const path = pathTo(node);
  node.chance = answer.toMove === -1 && !answer.gameOver;
  (answer.playedChance || []).forEach((chance, ply) => (path[ply].chance = chance)); // a line loaded whole too
  answer.playedLabels.forEach((label, ply) => (path[ply + 1].label = label));
  mergeTwin();
  notePosition(app.node, answer); // notes.js: what the analysis of this position says of its moves
  app.version += 1;
  render();
  for (const listener of app.listeners) listener();
}

// The board's position as the server describes it: as player `viewOf` sees it where set
// (a game with hidden information, the page its referee), else itself.
export function describe(viewOf = null) {
  const request = { server: app.server, game: app.game.name, position: app.start, moves: app.moves.slice(0, app.cursor) };
  return post("/api/describe", viewOf === null ? request : { ...request, viewOf });
}

export function render() {
  const position = app.position;
  const over = position.gameOver;
  const enabled = !over && (!app.locked || app.humanTurn());
  drawBoard($("board"), position, {
    play: (move) => userMove(move),
    enabled,
    flipped: app.flipped,
  });
  $("flip").hidden = !["GRID", "HEX"].includes(position.diagram?.kind);
  $("board").dataset.enabled = enabled ? "yes" : "no";
  $("main").dataset.version = String(app.version);
  $("position-text").value = position.position;
  let status;
  const you = app.players > 2 ? app.yourSeats() : []; // two players: the board's words alone
  if (over) status = `game over: ${outcomeText(over, you)}`;
  else if (position.toMove === -1) status = "chance: roll the dice";
  else status = `${seatName(position.toMove, you)} to move`;
  $("status").textContent = status;
  showResults(over, you);
  $("status").dataset.over = over ? "yes" : "no";
  const labels = position.legalMoveLabels || [];
  fillSelect($("legal"), position.legalMoves.map((move, i) => ({ value: move, text: labels[i] || move })));
  $("roll").hidden = position.toMove !== -1;
  for (const id of ["legal", "play-legal", "move-input", "play-typed", "roll"]) $(id).disabled = !enabled;
  renderMoves();
  drawGraph($("graph"), app, goTo);
}

function renderMoves() {
  renderMoveTree($("moves"));
  $("undo").disabled = app.locked || app.cursor === 0;
  $("first").disabled = $("undo").disabled;
  $("redo").disabled = app.locked || app.cursor >= app.moves.length;
  $("last").disabled = $("redo").disabled;
  $("promote").disabled = app.locked || onMainLine(app.node);
  $("delete-node").disabled = app.locked || !app.node.parent;
  for (const id of ["load-position", "reset-position", "game", "import-open"]) $(id).disabled = app.locked;
}

// Play `move` on the board: the board's node's child that plays it, a new variation where
// none does (the first move played from a node stays its main line). A move the server
// refuses leaves the tree and the board as they were, and its error is thrown.
export async function playMove(move) {
  const before = app.node;
  const { child, added } = childFor(before, move);
  app.node = child;
  resetSelection();
  try {
    await refresh();
  } catch (error) {
    app.node = before;
    if (added) removeNode(child);
    throw error;
  }
}

// A move typed in another notation than a move already there ("e4" beside "e2e4") is that
// move: the board's node is replaced by its twin, which has the same position.
function mergeTwin() {
  const node = app.node;
  const twin = node.parent && node.parent.children.find((other) => other !== node && other.label && other.label === node.label);
  if (!twin || node.children.length) return;
  removeNode(node);
  app.node = twin;
}

let pending = false; // a move of the user is on its way: ignore more clicks till it is shown

async function userMove(move) {
  if (pending) return;
  pending = true;
  try {
    await playMove(move); // an illegal typed move: the tree stays as it was
  } catch (error) {
    showError(error);
  } finally {
    pending = false;
  }
}

// To the position `ply` of the line shown.
export async function goTo(ply) {
  const line = app.line;
  await goToNode(line[Math.max(0, Math.min(ply, line.length - 1))]);
}

// To any node of the tree (a move of the list, a variation).
export async function goToNode(node) {
  if (app.locked || !node || node === app.node) return;
  await change(() => (app.node = node));
}

// Change the line with `edit` and show it; where the server refuses the new position (a
// malformed one pasted), the tree and the board stay as they were, and the error is thrown.
async function change(edit) {
  const before = { start: app.start, root: app.root, node: app.node };
  edit();
  resetSelection();
  try {
    await refresh();
  } catch (error) {
    Object.assign(app, before);
    throw error;
  }
}

// A new tree from `start` (the game's start position when empty).
export async function setStart(start) {
  const root = newNode(null);
  await change(() => Object.assign(app, { start, root, node: root }));
}

// A whole line from `start`, shown at its end (a match's game).
export async function showLine(start, moves) {
  const root = newNode(null);
  let node = root;
  for (const move of moves) node = childFor(node, move).child;
  await change(() => Object.assign(app, { start, root, node }));
}

// A game read from its record (`/api/import`'s GameTree): its tree, shown at its start.
export async function showRecord(tree) {
  const root = fromRecord(tree.nodes || []);
  await change(() => Object.assign(app, { start: tree.position, root, node: root }));
}

// Delete the board's node and every move after it (its variation from here); the board
// goes back to the position before it.
async function deleteNode() {
  const node = app.node;
  if (app.locked || !node.parent) return;
  await change(() => (app.node = node.parent));
  removeNode(node);
  render();
}

function promoteNode() {
  if (app.locked) return;
  promote(app.node);
  render();
}

// The chance event at the board: an outcome drawn with the probabilities the server gives.
export function randomOutcome(position) {
  let draw = Math.random();
  const { legalMoves, probabilities } = position;
  for (let index = 0; index < legalMoves.length; index++) {
    draw -= probabilities[index] ?? 1 / legalMoves.length;
    if (draw < 0) return legalMoves[index];
  }
  return legalMoves[legalMoves.length - 1];
}

// ------------------------------------------------------------------ pickers

async function pickServer(index) {
  app.server = index;
  enginesOf(index); // fetched while the games are: the game picked next needs them
  const answer = await get(`/api/games?server=${index}`);
  app.games = answer.games;
  fillSelect($("game"), app.games.map((game) => ({ value: game.name, text: game.title })));
  const wanted = new URLSearchParams(location.search).get("game");
  await pickGame(app.games.some((game) => game.name === wanted) ? wanted : app.games[0].name);
}

export async function pickGame(name) {
  for (const stop of app.stoppers) await stop();
  await closeAll();
  clearError();
  app.game = app.games.find((game) => game.name === name);
  $("game").value = name;
  $("notation-help").textContent = app.game.notationHelp;
  app.flipped = false;
  const engines = await enginesFor(app.server, app.game);
  fillEngineSelect($("engine"), engines);
  await pickEngine();
  for (const hook of app.gameHooks) await hook();
  document.body.dataset.game = name;
  await setStart("");
}

async function pickEngine() {
  const engines = await enginesFor(app.server, app.game);
  const engine = engines.find((candidate) => candidate.name === $("engine").value);
  app.readOptions = optionsForm($("options"), engine);
}

function pickMode(mode) {
  app.mode = mode;
  document.body.dataset.mode = mode;
  for (const button of document.querySelectorAll("#modes button")) {
    button.classList.toggle("active", button.dataset.mode === mode);
  }
  for (const listener of app.listeners) listener();
}

// ------------------------------------------------------------------ wiring

function guarded(action) {
  return async (...args) => {
    try {
      await action(...args);
    } catch (error) {
      showError(error);
    }
  };
}

async function copyPosition() {
  const text = $("position-text").value;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    $("position-text").select();
    document.execCommand("copy");
  }
  $("copy-position").textContent = "copied";
  setTimeout(() => ($("copy-position").textContent = "copy"), 1500);
}

function wire() {
  $("error-close").onclick = clearError;
  $("error-retry").onclick = retry;
  // A picked server or game hands the focus to the move list: the arrow keys then walk the
  // line instead of picking another game.
  $("server").onchange = guarded(async () => {
    $("moves").focus();
    await pickServer(Number($("server").value));
  });
  $("game").onchange = guarded(async () => {
    $("moves").focus();
    await pickGame($("game").value);
  });
  $("engine").onchange = guarded(pickEngine);
  for (const button of document.querySelectorAll("#modes button")) {
    button.onclick = () => pickMode(button.dataset.mode);
  }
  $("undo").onclick = guarded(() => goTo(app.cursor - 1));
  $("redo").onclick = guarded(() => goTo(app.cursor + 1));
  $("first").onclick = guarded(() => goTo(0));
  $("last").onclick = guarded(() => goTo(app.moves.length));
  $("moves").onclick = guarded((event) => {
    const item = event.target.closest("[data-node]");
    if (item) return goToNode(nodeById(Number(item.dataset.node)));
  });
  // A focused move of the list: Enter or Space goes there.
  $("moves").addEventListener("keydown", (event) => {
    const item = event.target.closest("[data-node]");
    if (!item || (event.key !== "Enter" && event.key !== " ")) return;
    event.preventDefault();
    goToNode(nodeById(Number(item.dataset.node))).catch(showError);
  });
  $("promote").onclick = promoteNode;
  $("delete-node").onclick = guarded(deleteNode);
  $("play-legal").onclick = () => userMove($("legal").value);
  $("roll").onclick = () => userMove(randomOutcome(app.position));
  const typed = () => {
    const move = $("move-input").value.trim();
    if (move) userMove(move).then(() => ($("move-input").value = ""));
  };
  $("play-typed").onclick = typed;
  // Only Enter is the boxes' own: every other key (typing, Backspace, Ctrl+V, Tab) does what
  // it does in any text box (a handler returning false would cancel them all).
  $("move-input").addEventListener("keydown", (event) => {
    if (event.key === "Enter") typed();
  });
  $("load-position").onclick = guarded(() => setStart($("position-text").value.trim()));
  $("position-text").addEventListener("keydown", (event) => {
    if (event.key === "Enter") $("load-position").click();
  });
  $("reset-position").onclick = guarded(() => setStart(""));
  $("copy-position").onclick = guarded(copyPosition);
  $("flip").onclick = () => {
    app.flipped = !app.flipped;
    render();
  };
  document.addEventListener("keydown", navigate);
}

// The line's keys, wherever the focus is but in a text box or a select: ← ↑ back a move,
// → ↓ forward, Home to the start, End to the end; f flips the board.
const KEYS = { ArrowLeft: "undo", ArrowUp: "undo", ArrowRight: "redo", ArrowDown: "redo", Home: "first", End: "last" };
// With Shift, ↑ and ↓ choose among the moves played from the same position (the variations).
const VARIATION_KEYS = { ArrowUp: -1, ArrowDown: 1 };

export function typing(target) {
  if (!(target instanceof Element)) return false;
  if (target.closest("select, textarea, [contenteditable]")) return true;
  return target.tagName === "INPUT" && !["checkbox", "radio", "button", "submit", "reset"].includes(target.type);
}

function navigate(event) {
  if (event.key === "f" && !event.altKey && !event.ctrlKey && !event.metaKey && !typing(event.target)) {
    if (!$("flip").hidden) $("flip").click(); // f flips the board
    return;
  }
  if (VARIATION_KEYS[event.key] && event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey && !typing(event.target)) {
    event.preventDefault(); // Shift+↑ Shift+↓: the variation before or after this move
    if (!app.locked) goToNode(sibling(app.node, VARIATION_KEYS[event.key])).catch(showError);
    return;
  }
  const button = KEYS[event.key];
  if (!button || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || typing(event.target)) return;
  event.preventDefault(); // the keys walk the line, they do not scroll the page
  if (!$(button).disabled) $(button).click();
}

// The servers, and the first server's games (again, at a retry after a failure).
let started = false;

async function start() {
  $("main").dataset.ready = "no";
  try {
    const { servers, match } = await get("/api/servers");
    app.servers = servers;
    fillSelect($("server"), servers.map((server) => ({ value: server.index, text: server.address })));
    $("server-box").hidden = servers.length < 2;
    if (!started) {
      initWatch();
      initMatch(match);
      started = true;
    }
    await pickServer(0);
    $("main").dataset.ready = "yes";
  } catch (error) {
    showError(error);
    $("status").textContent = error.message || String(error); // the board's place says it too
    $("main").dataset.ready = "error";
  }
}

async function main() {
  wire();
  closeOnLeave();
  initAnalysis();
  initPlay();
  initRecords();
  await start();
}

main();
