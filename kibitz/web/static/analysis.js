// Analysis: a search of the board's position with live depth, score, nodes/s, the line and
// every root move's score (Info.root_moves); it follows the board until stopped.

import { $, app, outcomeText, playMove, render, showError, typing } from "./app.js";
import { search, stopSearch } from "./engines.js";
import { hideEvalBar, showEvalBar } from "./evalbar.js";
import { CHANCE_HEADS, chanceCells, hasChances } from "./chances.js";
import { escapeHtml } from "./html.js";
import { recordAnalysis } from "./notes.js";
import { clearMarks, drawMarks, setMarks, toggleMarks } from "./overlay.js";

const panel = () => $("analysis-panel");
let wanted = false; // the user asked for analysis (until stop)
let running = null; // the promise of the running search
let restart = false; // the position changed: search it when the running one ends
let shown = null; // the app.version whose analysis is on screen (null: none)
let finalLine = []; // the finished analysis' line (a puzzle's whole solution), to play
const LINE_STEP_MS = 400; // between two moves of the line played on the board

function limits() {
  const kind = $("limit-kind").value;
  const value = Number($("limit-value").value);
  const limits = { reportRootMoves: true, solve: $("solve").checked };
  if (kind === "infinite") limits.infinite = !limits.solve;
  else if (kind === "depth") limits.depth = value;
  else if (kind === "nodes") limits.nodes = value;
  else limits.moveTimeMs = Math.round(value * 1000);
  return limits;
}

const number = (value) => {
  const n = Number(value || 0);
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${(n / 1e3).toFixed(1)}k` : String(n);
};

// The score as the server words it, from the side to move's point of view; with three
// players and more every player's value after it, as the root moves' P1..Pn columns show
// them ("+0.00 (P1 -1.00, P2 0.00, P3 1.00)").
function showScore(element, score) {
  const values = (score && score.playerValues) || [];
  const each = values.map((value, player) => `P${player + 1} ${Number(value).toFixed(2)}`).join(", ");
  element.textContent = score ? (values.length ? `${score.text} (${each})` : score.text) : "-";
  element.classList.toggle("proven", Boolean(score && score.proven));
}

function showProgress(data, final, ply) {
  if (!data.depth && data.queuedMs) {
    $("analysis-state").textContent = `waiting for a free search slot (${data.queuedMs} ms)`;
    return;
  }
  $("stat-depth").textContent = data.selectiveDepth ? `${data.depth}/${data.selectiveDepth}` : String(data.depth);
  showScore($("stat-score"), data.score);
  $("stat-nodes").textContent = number(data.nodes);
  $("stat-time").textContent = `${(Number(data.timeMs || 0) / 1000).toFixed(2)} s`;
  if (!final) $("stat-nps").textContent = number(data.nodesPerSecond);
  $("pv").textContent = (data.pvLabels || []).join(" ");
  if (data.rootMoves && data.rootMoves.length) rootMoves(data.rootMoves);
  recordAnalysis(app.position, data.rootMoves); // the best plays, the error of the move played
  showOnBoard(data);
  app.setEval(ply, data.score);
  panel().dataset.infos = String(Number(panel().dataset.infos || 0) + 1);
}

// The score beside the board (the evaluation bar) and the best moves on it: the root moves,
// best first, or without them the line's first move. Called only with the analysis of the
// board's position (app.position), which the marks are tied to.
function showOnBoard(data) {
  if (data.score) showEvalBar(data.score);
  const first = data.pv && data.pv.length ? [{ move: data.pv[0], moveLabel: (data.pvLabels || [])[0], score: data.score }] : [];
  setMarks(app.position, data.rootMoves && data.rootMoves.length ? data.rootMoves : first);
  drawMarks($("board"));
}

const SHOWN_ROOT_MOVES = 10; // the best ones; "show all N" shows the rest
let allRootMoves = false; // the user asked for every root move (till the position changes)
let lastRootMoves = []; // the root moves on screen (to show them all at a click)

// The root-move table: score and line; visits, win/draw/loss and priors (MCTS), the draw
// column only where some move may draw; the chance of each outcome before a roll
// (expectimax). The best SHOWN_ROOT_MOVES rows, or all of them when asked.
function rootMoves(all) {
  lastRootMoves = all;
  const more = $("root-more");
  more.hidden = all.length <= SHOWN_ROOT_MOVES || allRootMoves;
  more.textContent = `show all ${all.length}`;
  const moves = allRootMoves ? all : all.slice(0, SHOWN_ROOT_MOVES);
  const visits = all.some((move) => move.score.visits !== undefined);
  const draws = all.some((move) => Number(move.score.drawProbability || 0) > 0);
  const chance = all.some((move) => move.probability !== undefined);
  const prior = all.some((move) => move.prior !== undefined);
  const head = ["move", ...(chance ? ["chance"] : []), "score"];
  if (visits) head.push("visits", "win", ...(draws ? ["draw"] : []), "loss");
  if (prior) head.push("prior");
  const gammons = hasChances(all); // backgammon: W, W(g), W(bg), L, L(g), L(bg)
  if (gammons) head.push(...CHANCE_HEADS);
  // three players and more: every player's value (Score.player_values), a column each
  const players = Math.max(0, ...all.map((move) => (move.score.playerValues || []).length));
  for (let player = 1; player <= players; player++) head.push(`P${player}`);
  head.push("line");
  const percent = (value) => (value === undefined ? "" : `${(Number(value) * 100).toFixed(1)}%`);
  const title = (name) => (/^P[0-9]+$/.test(name) ? ` title="${escapeHtml(app.playerName(Number(name.slice(1)) - 1))}"` : "");
  $("root-moves").querySelector("thead").innerHTML = `<tr>${head.map((name) => `<th scope="col"${title(name)}>${name}</th>`).join("")}</tr>`;
  // Each move is a button (Tab, Enter) that plays it; the table is redrawn with every report,
  // so the focus goes back to the same move's button.
  const active = document.activeElement;
  const focused = active && active.closest("#root-moves tr[data-move]");
  $("root-moves").querySelector("tbody").innerHTML = moves
    .map((move) => {
      const score = move.score;
      const bound = score.bound === "LOWER" || score.bound === "UPPER";
      const label = escapeHtml(move.moveLabel || move.move);
      const cells = [`<td class="move"><button type="button" aria-label="play ${label}">${label}</button></td>`];
      if (chance) cells.push(`<td>${percent(move.probability)}</td>`);
      cells.push(`<td class="score${bound ? " bound" : ""}${score.proven ? " proven" : ""}">${escapeHtml(score.text)}</td>`);
      if (visits) {
        cells.push(`<td>${escapeHtml(score.visits)}</td>`, `<td>${percent(score.winProbability)}</td>`);
        if (draws) cells.push(`<td>${percent(score.drawProbability)}</td>`);
        cells.push(`<td>${percent(score.lossProbability)}</td>`);
      }
      if (prior) cells.push(`<td>${percent(move.prior)}</td>`);
      if (gammons) cells.push(...chanceCells(score));
      for (let player = 0; player < players; player++) {
        const value = (score.playerValues || [])[player];
        cells.push(`<td class="player-value">${value === undefined ? "" : Number(value).toFixed(2)}</td>`);
      }
      cells.push(`<td class="line">${escapeHtml((move.pvLabels || []).join(" "))}</td>`);
      return `<tr data-move="${escapeHtml(move.move)}">${cells.join("")}</tr>`;
    })
    .join("");
  if (!focused) return;
  const again = [...$("root-moves").querySelectorAll("tbody tr")].find((row) => row.dataset.move === focused.dataset.move);
  if (again) again.querySelector("button").focus({ preventScroll: true });
}

// Nothing analysed on screen: the board shows another position than the one analysed (a
// move, a jump in the line, a loaded position), or a search starts.
function clearResults() {
  for (const id of ["stat-depth", "stat-score", "stat-nodes", "stat-nps", "stat-time"]) $(id).textContent = "-";
  $("stat-score").classList.remove("proven");
  $("pv").textContent = "";
  $("play-line").hidden = true;
  finalLine = [];
  for (const part of ["thead", "tbody"]) $("root-moves").querySelector(part).innerHTML = "";
  allRootMoves = false;
  lastRootMoves = [];
  $("root-more").hidden = true;
  panel().dataset.best = "";
  shown = null;
  panel().dataset.version = "";
  hideEvalBar();
  clearMarks();
  drawMarks($("board"));
}

// A new game: nothing analysed yet.
function clear() {
  clearResults();
  $("analysis-state").textContent = "";
  setState("idle");
}

function setState(state) {
  panel().dataset.state = state;
  $("analyse-start").disabled = state === "running";
  $("analyse-stop").disabled = state !== "running";
}

async function analyse() {
  restart = false;
  setState("running");
  $("analysis-state").textContent = "searching…";
  panel().dataset.infos = "0";
  const request = app.request(limits());
  const { version, cursor } = app;
  clearResults();
  shown = version; // what the panel shows from now on belongs to this position
  panel().dataset.version = String(version);
  try {
    let stopping = false;
    const result = await search("analyse", app.engineChoice(), request, (info) => {
      if (app.version === version) showProgress(info, false, cursor);
      if ((app.version !== version || !wanted) && !stopping) {
        stopping = true; // a stop sent before this search started reached nothing
        stopSearch("analyse").catch(showError);
      }
    });
    if (app.version === version) {
      showProgress(result, true, cursor);
      const label = result.bestMoveLabel || result.bestMove;
      const chance = app.position.toMove === -1; // the engine names the likeliest outcome
      const best = chance ? `most likely roll ${label.replace(/:$/, "")}` : `best move ${label}`;
      const why = result.gameOver ? `game over: ${outcomeText(result.gameOver)}` : `${best} (${result.stopReason})`;
      $("analysis-state").textContent = why;
      panel().dataset.best = result.bestMove || "";
      finalLine = result.pv || [];
      $("play-line").hidden = !finalLine.length;
      render();
    }
  } catch (error) {
    wanted = false;
    showError(error);
    $("analysis-state").textContent = `not analysed: ${error.message || error}`;
    running = null;
    setState("failed"); // start is offered again, stop has nothing to stop
    return;
  }
  running = null;
  if (wanted && restart) {
    running = analyse();
  } else {
    wanted = false;
    setState("done");
  }
}

async function startAnalysis() {
  if (running) return;
  wanted = true;
  running = analyse();
}

export async function stopAnalysis() {
  wanted = false;
  if (!running) return;
  try {
    await stopSearch("analyse");
  } catch (error) {
    showError(error);
  }
  await running;
}

// The board moved: search the new position (after the running search stops).
async function follow() {
  if (app.version !== shown) {
    clearResults(); // never the analysis of one position beside another
    if (!running) $("analysis-state").textContent = "";
  }
  if (app.mode !== "analyse") {
    await stopAnalysis();
    return;
  }
  if (!running || !wanted) return;
  restart = true;
  await stopSearch("analyse").catch(showError);
}

// The keys of the analysis on the board, wherever the focus is but in a text box or a
// select: a shows or hides the best moves' arrows, h the heat map of the visits.
const MARK_KEYS = { a: "arrows", h: "heat" };

function markKeys(event) {
  const kind = MARK_KEYS[event.key];
  if (!kind || event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
  if (app.mode === "analyse") toggleMarks(kind);
}

// Plays the analysis' line on the board move after move (a solution, animated), while the
// board stays where the last of them put it: a click elsewhere ends it.
async function playLine() {
  const line = finalLine;
  for (const move of line) {
    const before = app.version;
    await playMove(move);
    if (app.version === before) return;
    const reached = app.version;
    await new Promise((done) => setTimeout(done, LINE_STEP_MS));
    if (app.version !== reached) return;
  }
}

export function initAnalysis() {
  $("limit-kind").onchange = () => ($("limit-value").hidden = $("limit-kind").value === "infinite");
  $("analyse-start").onclick = startAnalysis;
  $("analyse-stop").onclick = stopAnalysis;
  $("root-more").onclick = () => {
    allRootMoves = true;
    rootMoves(lastRootMoves);
  };
  $("root-moves").onclick = (event) => {
    const row = event.target.closest("tr[data-move]");
    if (!row || app.locked || app.position.gameOver || shown !== app.version) return;
    playMove(row.dataset.move).catch(showError);
  };
  $("play-line").onclick = () => playLine().catch(showError);
  $("arrows-toggle").onclick = () => toggleMarks("arrows");
  $("heat-toggle").onclick = () => toggleMarks("heat");
  document.addEventListener("keydown", markKeys);
  app.listeners.push(follow);
  app.stoppers.push(stopAnalysis);
  app.gameHooks.push(clear);
}
