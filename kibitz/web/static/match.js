// Watching the match of `kibitz web --match DIR` (in the "Engine vs engine" view): its games
// being played and the finished ones, polled once a second; picking one shows it on the
// board, and a game being played follows its moves there.

import { get } from "./api.js";
import { $, app, pickGame, ranking, showError, showLine, signed } from "./app.js";
import { escapeHtml } from "./html.js";

const POLL_MS = 1000;
let shown = null; // the game on the board: { id, count } (its moves when last shown)
let games = new Map(); // id -> game, from the latest answer
let timer = null;

export function initMatch(available) {
  $("match-section").hidden = !available;
  if (!available) return;
  $("match-games").onclick = (event) => {
    const item = event.target.closest("[data-id]");
    if (item) show(games.get(Number(item.dataset.id))).catch(showError);
  };
  app.listeners.push(() => (app.mode === "watch" ? start() : stop()));
}

function start() {
  if (timer === null) {
    timer = setInterval(() => poll().catch(stopWithError), POLL_MS);
    poll().catch(stopWithError);
  }
}

function stop() {
  clearInterval(timer);
  timer = null;
}

function stopWithError(error) {
  stop();
  showError(error);
}

async function poll() {
  const match = await get("/api/match");
  games = new Map([...match.running, ...match.finished].map((game) => [game.id, { ...game, game: match.game }]));
  let status = `${match.game}: ${match.engines.join(" vs ")}, ${match.played} of ${match.planned} games played`;
  if (match.summary) status += ` (ended: ${ending(match.summary)})`;
  $("match-status").textContent = status;
  $("match-games").innerHTML = [
    ...match.running.map((game) => item(game, `playing, ${game.moves.length - game.openingPlies} moves`, "running")),
    ...match.finished.slice().reverse().map((game) => item(game, `${outcome(game)} (${game.reason})`, "finished")),
  ].join("");
  const current = shown && games.get(shown.id);
  if (current && current.moves.length !== shown.count) await show(current);
}

// How an ended match came out: wins-draws-losses of the first engine against the second, or
// with N seats each engine's mean rank points, best first ("maxn 0.75, brs 0.50, ...").
function ending(summary) {
  if (!summary.seats || summary.seats <= 2) return `${summary.wins}-${summary.draws}-${summary.losses}`;
  return summary.table.map((row) => `${row.name} ${row.score === null ? "-" : Number(row.score).toFixed(2)}`).join(", ");
}

// How a finished game came out: its result ("1-0"), or with N seats the engines by place
// with their returns ("1. brs +1, 2. maxn 0, 3. paranoid -1").
function outcome(game) {
  if (!game.returns || game.returns.length <= 2) return game.result;
  return ranking(game.returns).map((row) => `${row.place}. ${game.engines[row.player]} ${signed(row.value)}`).join(", ");
}

function item(game, text, state) {
  const selected = shown && shown.id === game.id ? " selected" : "";
  const players = game.engines.map(escapeHtml).join(" - ");
  const id = Number(game.id);
  return `<li class="${state}${selected}" data-id="${id}"><button type="button">game ${id + 1}</button> ${players}: ${escapeHtml(text)}</li>`;
}

async function show(game) {
  if (!game) return;
  if (app.game.name !== game.game) await pickGame(game.game);
  shown = { id: game.id, count: game.moves.length };
  await showLine(game.position, game.moves);
  for (const element of $("match-games").children) {
    element.classList.toggle("selected", Number(element.dataset.id) === game.id);
  }
}
