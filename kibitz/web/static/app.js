// The page: the game picker, the board, the position and its move list. Analysis, play and
// engine against engine live in analysis.js and play.js; they follow the position through
// `app.listeners`.

import { get, post } from "./api.js";
import { draw, resetSelection } from "./boards.js";
import { closeAll, closeOnLeave, enginesFor, fillEngineSelect, optionsForm } from "./engines.js";
import { drawGraph } from "./graph.js";
import { escapeHtml, fillSelect } from "./html.js";
import { initAnalysis } from "./analysis.js";
import { initMatch } from "./match.js";
import { initPlay, initWatch } from "./play.js";

export const $ = (id) => document.getElementById(id);

export const app = {
  server: 0,
  servers: [],
  games: [],
  game: null,
  start: "", // the start position, in the game's notation
  moves: [], // every move of the line, in the wire's notation
  movesText: [], // the same as people read them (the server's labels: SAN for chess)
  cursor: 0, // how many moves of the line are played on the board
  position: null, // the gateway's describe answer for the board
  evals: [], // per ply: the first player's value (the graph)
  mode: "analyse",
  locked: false, // a game is running: the line may not be edited
  humanTurn: () => true, // set by play.js while a game runs
  readOptions: () => ({}),
  listeners: [], // called after every change of position
  stoppers: [], // stop analysis, games: called before the game changes
  gameHooks: [], // called when a game is picked
  version: 0, // counts the changes of position
  flipped: false,
  chance: [], // per ply of the line, where known: was its position a chance node (a roll)

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
// "draw", or for `you` (the player you are) "you won" / "you lost"; the server's reason
// follows in parentheses where it says more.
export function outcomeText(over, you) {
  const returns = (over.returns || []).map(Number);
  const reason = over.reason || "";
  if (!returns.length) return reason;
  const best = Math.max(...returns);
  const drawn = returns.every((value) => value === returns[0]);
  if (drawn) return reason.toLowerCase().startsWith("draw") ? reason : `draw (${reason})`;
  let outcome;
  if (you !== undefined) outcome = returns[you] === best ? "you won" : "you lost";
  else outcome = `${app.playerName(returns.indexOf(best))} wins`;
  if (!reason) return outcome;
  if (reason.toLowerCase().includes(outcome.toLowerCase())) return reason; // "checkmate, White wins"
  return `${outcome} (${reason})`;
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
export async function refresh() {
  const answer = await post("/api/describe", {
    server: app.server,
    game: app.game.name,
    position: app.start,
    moves: app.moves.slice(0, app.cursor),
  });
  app.position = answer;
  app.chance[app.cursor] = answer.toMove === -1 && !answer.gameOver;
  app.version += 1;
  app.movesText = [...answer.playedLabels, ...app.movesText.slice(app.cursor)];
  render();
  for (const listener of app.listeners) listener();
}

export function render() {
  const position = app.position;
  const over = position.gameOver;
  const enabled = !over && (!app.locked || app.humanTurn());
  draw($("board"), position, {
    play: (move) => userMove(move),
    enabled,
    flipped: app.flipped,
  });
  $("flip").hidden = !["GRID", "HEX"].includes(position.diagram?.kind);
  $("board").dataset.enabled = enabled ? "yes" : "no";
  $("main").dataset.version = String(app.version);
  $("position-text").value = position.position;
  let status;
  if (over) status = `game over: ${outcomeText(over)}`;
  else if (position.toMove === -1) status = "chance: roll the dice";
  else status = `${app.playerName(position.toMove)} to move`;
  $("status").textContent = status;
  $("status").dataset.over = over ? "yes" : "no";
  const labels = position.legalMoveLabels || [];
  fillSelect($("legal"), position.legalMoves.map((move, i) => ({ value: move, text: labels[i] || move })));
  $("roll").hidden = position.toMove !== -1;
  for (const id of ["legal", "play-legal", "move-input", "play-typed", "roll"]) $(id).disabled = !enabled;
  renderMoves();
  drawGraph($("graph"), app, goTo);
}

// Ply numbers; where two players take turns (no dice), move numbers before the first
// player's moves ("1. e4 e5 2. Nf3"), "1..." when the line starts with the second's; from
// the position's own number where the game numbers its moves (PositionInfo.moveNumber: a
// chess FEN's fullmove number), else from 1.
function moveNumber(ply) {
  if (app.game.hasChance) return chanceNumbers()[ply];
  if (app.game.players !== 2 || !app.position) return `${ply + 1}.`;
  const position = app.position;
  const number = Number(position.moveNumber || 0);
  // the board's position as a count of plies from the numbering's start, back to ply 0
  let start = (number ? 2 * (number - 1) + position.toMove : position.toMove) - app.cursor;
  if (!number || start < 0) start = ((start % 2) + 2) % 2;
  const index = start + ply;
  if (index % 2 === 1 && ply > 0) return "";
  return `${Math.floor(index / 2) + 1}.${index % 2 ? ".." : ""}`;
}

// In a game with chance, a chance outcome (a roll) and the move after it share one number:
// a number starts at each chance outcome, and at a move that does not follow one. Whether a
// ply was a chance outcome is known from the positions described (app.chance, per ply).
function chanceNumbers() {
  const numbers = [];
  let count = 0;
  app.movesText.forEach((_, ply) => {
    const shares = ply > 0 && app.chance[ply - 1] && !app.chance[ply];
    if (!shares) count += 1;
    numbers.push(shares ? "" : `${count}.`);
  });
  return numbers;
}

function renderMoves() {
  const list = $("moves");
  list.innerHTML = app.movesText
    .map((text, ply) => {
      const state = ply === app.cursor - 1 ? "current" : ply >= app.cursor ? "future" : "";
      const number = moveNumber(ply);
      const label = number ? `<span class="number">${number}</span>` : "";
      return `<li class="${state}" data-ply="${ply + 1}">${label}<span class="move">${escapeHtml(text)}</span></li>`;
    })
    .join("");
  list.dataset.count = String(app.cursor);
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
  $("undo").disabled = app.locked || app.cursor === 0;
  $("first").disabled = $("undo").disabled;
  $("redo").disabled = app.locked || app.cursor >= app.moves.length;
  $("last").disabled = $("redo").disabled;
  for (const id of ["load-position", "reset-position", "game"]) $(id).disabled = app.locked;
}

// Play `move` on the board: a new line from the cursor on (a move already next is kept).
export async function playMove(move) {
  if (app.moves[app.cursor] !== move) {
    app.moves = [...app.moves.slice(0, app.cursor), move];
    app.movesText = app.movesText.slice(0, app.cursor);
    app.evals = app.evals.slice(0, app.cursor + 1);
    app.chance = app.chance.slice(0, app.cursor + 1);
  }
  app.cursor += 1;
  resetSelection();
  await refresh();
}

let pending = false; // a move of the user is on its way: ignore more clicks till it is shown

async function userMove(move) {
  if (pending) return;
  pending = true;
  const before = { moves: app.moves, movesText: app.movesText, evals: app.evals, chance: app.chance, cursor: app.cursor };
  try {
    await playMove(move);
  } catch (error) {
    Object.assign(app, before); // an illegal typed move: the line stays as it was
    showError(error);
  } finally {
    pending = false;
  }
}

export async function goTo(ply) {
  if (app.locked) return;
  const cursor = Math.max(0, Math.min(ply, app.moves.length));
  if (cursor === app.cursor) return;
  await change(() => (app.cursor = cursor));
}

// Change the line with `edit` and show it; where the server refuses the new position (a
// malformed one pasted), the line and the board stay as they were, and the error is thrown.
async function change(edit) {
  const before = { start: app.start, moves: app.moves, movesText: app.movesText, evals: app.evals, cursor: app.cursor };
  edit();
  resetSelection();
  try {
    await refresh();
  } catch (error) {
    Object.assign(app, before);
    throw error;
  }
}

// A new line from `start` (the game's start position when empty).
export async function setStart(start) {
  await change(() => Object.assign(app, { start, moves: [], movesText: [], evals: [], chance: [], cursor: 0 }));
}

// A whole line from `start`, shown at its end (a match's game).
export async function showLine(start, moves) {
  await change(() => Object.assign(app, { start, moves: [...moves], movesText: [], evals: [], chance: [], cursor: moves.length }));
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
    const item = event.target.closest("[data-ply]");
    if (item) return goTo(Number(item.dataset.ply));
  });
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

function typing(target) {
  if (!(target instanceof Element)) return false;
  if (target.closest("select, textarea, [contenteditable]")) return true;
  return target.tagName === "INPUT" && !["checkbox", "radio", "button", "submit", "reset"].includes(target.type);
}

function navigate(event) {
  if (event.key === "f" && !event.altKey && !event.ctrlKey && !event.metaKey && !typing(event.target)) {
    if (!$("flip").hidden) $("flip").click(); // f flips the board
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
  await start();
}

main();
