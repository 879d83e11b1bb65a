// Games from the board's position on: you against an engine (a move time or a clock; with
// three players and more you take one seat or several, the engine the others), and
// engine against engine (each on a server of its own, watched live); a finished game is
// downloadable in its game's record format, as the server writes it.
//
// A game with hidden information (poker, blind tic-tac-toe) is refereed here: the page keeps
// the full game, deals, draws your view alone while you play (the server's Describe
// `view_of`), asks each engine about its own view, and shows the full game at the end.

import { $, app, describe, outcomeText, playMove, randomOutcome, refresh, render, showError } from "./app.js";
import { closeSession, enginesFor, fillEngineSelect, search, stopSearch } from "./engines.js";
import { escapeHtml, fillSelect } from "./html.js";
import { downloadRecord, exportBody } from "./records.js";

// ------------------------------------------------------------------ shared

let game = null; // the running game: { kind, players, clock, over }

function lock(locked) {
  app.locked = locked;
  render();
}

// The score of a search's result as the graph records it, at the ply it searched.
function record(ply, result) {
  app.setEval(ply, result.score);
}

// "engine (Black) played dxe5, +10.18 for Black": the score of a search is from the side
// that searched (the mover), said so.
function playedText(who, side, result) {
  const name = app.playerName(side);
  const move = result.bestMoveLabel || result.bestMove;
  const score = result.score && result.score.text ? `, ${result.score.text} for ${name}` : "";
  return `${who} (${name}) played ${move}${score}`;
}

// What you saw of an engine's move in a game with hidden information: its label in your
// view ("?": nothing).
function seenText(who, side) {
  const labels = app.position.playedLabels || [];
  const seen = labels[labels.length - 1];
  const name = app.playerName(side);
  return !seen || seen === "?" ? `${who} (${name}) moved, unseen` : `${who} (${name}) played ${seen}`;
}

// Whether the game hides information: engines are asked about their own view, and their
// scores are not shown (they would tell what the engine holds).
const hidden = () => Boolean(app.game.hiddenInformation);

// `mover`'s engine's question: the board's position, or in a game with hidden information
// the mover's view of it.
async function question(mover, limits) {
  if (!hidden()) return app.request(limits);
  return { position: (await describe(mover)).position, moves: [], limits };
}

// The chance event at the board, drawn from the full position (a view lists no outcomes).
async function playChance() {
  await playMove(randomOutcome(hidden() ? await describe() : app.position));
}

async function engineMove(purpose, choice, limits, onInfo, mover) {
  const ply = app.cursor;
  const result = await search(purpose, choice, await question(mover, limits), onInfo);
  if (!game || game.stopped) return null;
  if (!hidden()) record(ply, result);
  if (!result.bestMove) return null;
  await playMove(result.bestMove);
  return result;
}

// The game as far as the board's position (the path to its node): evaluations and, where
// it was played on a clock, the time each move left.
async function download(players) {
  await downloadRecord(exportBody(players, true));
}

// ------------------------------------------------------------------ you against the engines

// You take one seat or several (three players and more), the engine every other seat: one
// session plays them all, each search from the board's position for the player to move.

const playPanel = () => $("play-panel");
const seatCount = () => Math.max(1, app.players);
const yours = (player) => Boolean(game && game.seats.includes(player));

function setPlayState(state, text) {
  playPanel().dataset.state = state;
  if (text !== undefined) $("play-status").textContent = text;
  $("play-start").disabled = state === "human" || state === "engine";
  $("play-resign").disabled = !(state === "human" || state === "engine");
  $("play-download").disabled = !game || state === "human" || state === "engine";
}

// The seat pickers of the board's game and number of players: two players pick first or
// second (the select), three and more a checkbox per player, the first one ticked; made
// again only when the game or its number of players changes (a position loaded).
let seatsFor = "";

function syncSeats() {
  const key = `${app.game.name}/${seatCount()}`;
  if (key === seatsFor) return;
  seatsFor = key;
  const many = seatCount() > 2;
  $("play-side-box").hidden = many;
  $("play-seats").hidden = !many;
  $("play-seats-boxes").innerHTML = many
    ? Array.from({ length: seatCount() }, (_, player) => `<label><input type="checkbox" value="${player}"${player === 0 ? " checked" : ""}> ${escapeHtml(app.playerName(player))}</label>`).join("")
    : "";
  $("clocks").innerHTML = Array.from({ length: seatCount() }, (_, player) => `<span id="clock-${player}" class="clock"></span>`).join("");
}

// The seats you asked for: the select's one with two players, else the boxes ticked.
function pickedSeats() {
  if (seatCount() <= 2) return [Number($("play-side").value)];
  const seats = [...$("play-seats").querySelectorAll("input:checked")].map((box) => Number(box.value));
  if (!seats.length) throw new Error("pick your seats: tick at least one player");
  return seats;
}

function clockText(ms) {
  const seconds = Math.max(0, ms) / 1000;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${(seconds - minutes * 60).toFixed(1).padStart(4, "0")}`;
}

function showClocks() {
  for (const element of $("clocks").children) {
    const player = Number(element.id.slice("clock-".length));
    if (!game || !game.clock) {
      element.textContent = "";
      continue;
    }
    let left = game.clock.left[player];
    if (game.clock.running === player) left -= performance.now() - game.clock.since;
    element.textContent = `${app.playerName(player)} ${clockText(left)}`;
    element.classList.toggle("running", game.clock.running === player);
  }
}

// Charge the time since the last move to the player who made it (and add the increment).
function punchClock(mover) {
  const clock = game && game.clock;
  if (!clock || clock.running !== mover) return;
  clock.left[mover] -= performance.now() - clock.since;
  if (clock.left[mover] > 0) clock.left[mover] += clock.increment;
  clock.running = null;
  app.node.clockMs = Math.max(0, clock.left[mover]); // the record's time after the move
}

function startClock(player) {
  const clock = game && game.clock;
  if (!clock) return;
  clock.running = player;
  clock.since = performance.now();
  showClocks(); // the running clock marked now, not at the next tick
}

function engineLimits() {
  if (!game.clock) return { moveTimeMs: game.moveTimeMs };
  return {
    clock: {
      timeLeftMs: game.clock.left.map((ms) => String(Math.max(1, Math.round(ms)))),
      incrementMs: game.clock.left.map(() => String(game.clock.increment)),
    },
  };
}

// The game ends; one with hidden information is shown whole first (the board was your view).
function finish(text) {
  if (game.clock) game.clock.running = null;
  clearInterval(game.ticker);
  game.over = true;
  lock(false);
  showClocks();
  if (!(game.kind === "play" && hidden())) return setPlayState("over", text);
  setPlayState("ending", text);
  refresh()
    .catch(showError)
    .then(() => setPlayState("over", text));
}

// After every change of position during a game: whose turn it is.
async function turn() {
  if (!game || game.kind !== "play" || game.over || game.thinking) return;
  const position = app.position;
  const running = game.clock && game.clock.running;
  if (yours(running) && running !== position.toMove) punchClock(running); // you moved
  if (position.gameOver) {
    finish(`game over: ${outcomeText(position.gameOver, game.seats)}`);
    return;
  }
  if (position.toMove === -1) {
    await playChance();
    return;
  }
  const mover = position.toMove;
  if (yours(mover)) {
    startClock(mover);
    setPlayState("human", `your move (${app.playerName(mover)})`);
    render();
    return;
  }
  const name = game.players[mover];
  setPlayState("engine", seatCount() > 2 ? `${name} (${app.playerName(mover)}) is thinking…` : `${name} is thinking…`);
  startClock(mover);
  game.thinking = true;
  try {
    const result = await engineMove("play", game.choice, engineLimits(), () => {}, mover);
    punchClock(mover);
    game.thinking = false;
    if (game.clock && game.clock.left[mover] <= 0) finish(`${name} lost on time`);
    else if (result) {
      $("play-last").textContent = hidden() ? seenText("engine", mover) : playedText("engine", mover, result);
      await turn();
    }
  } catch (error) {
    game.thinking = false;
    if (!game.stopped) {
      showError(error);
      finish("stopped by an error");
    }
  }
}

async function startGame() {
  const seats = pickedSeats();
  if (hidden()) await describe(seats[0]); // a view has no other player's: refused here
  const choice = app.engineChoice();
  const clock =
    $("play-limit").value === "clock"
      ? {
          left: Array.from({ length: seatCount() }, () => Number($("play-minutes").value) * 60000),
          increment: Math.round(Number($("play-increment").value) * 1000),
          running: null,
          since: 0,
        }
      : null;
  const engineName = `${choice.engine} (${app.servers[app.server].address})`;
  game = {
    kind: "play",
    seats,
    choice,
    clock,
    moveTimeMs: Math.round(Number($("play-movetime").value) * 1000),
    players: Array.from({ length: seatCount() }, (_, player) => (seats.includes(player) ? "you" : engineName)),
    thinking: false,
    over: false,
    stopped: false,
  };
  $("play-last").textContent = "";
  // Playing second in a two-player game: the board is drawn from your side (flip turns it back)
  if (seatCount() === 2) app.flipped = seats[0] === 1;
  game.ticker = clock ? setInterval(tick, 100) : null;
  lock(true);
  if (hidden()) await refresh(); // your view; its listeners take the first turn
  else await turn();
}

// The clock display, and a player whose time ran out while it was their move.
function tick() {
  showClocks();
  const clock = game && game.clock;
  if (!clock || !yours(clock.running)) return;
  if (clock.left[clock.running] - (performance.now() - clock.since) <= 0) {
    finish(`${app.playerName(clock.running)} (you) lost on time`);
  }
}

async function stopGame() {
  if (!game || game.over) return;
  game.stopped = true;
  finish("stopped");
  if (game.kind === "play") await stopSearch("play").catch(() => {});
}

export function initPlay() {
  app.humanTurn = () => Boolean(game && game.kind === "play" && !game.thinking && yours(app.position.toMove));
  app.yourSeats = () => (game && game.kind === "play" ? game.seats : []);
  app.viewOf = () => (game && game.kind === "play" && !game.over && hidden() ? game.seats[0] : null);
  $("play-limit").onchange = () => {
    const clock = $("play-limit").value === "clock";
    $("play-clock-box").hidden = !clock;
    $("play-movetime-box").hidden = clock;
  };
  $("play-start").onclick = () => startGame().catch(showError);
  $("play-resign").onclick = () => stopGame().catch(showError);
  $("play-download").onclick = () => download(game.players).catch(showError);
  app.listeners.push(() => {
    syncSeats();
    if (game && game.kind === "play" && app.mode !== "play") stopGame();
    else turn().catch(showError);
  });
  app.stoppers.push(async () => {
    await stopGame();
    await closeSession("play");
    game = null;
    setPlayState("idle", "");
    showClocks();
  });
  setPlayState("idle", "");
}

// ------------------------------------------------------------------ engine against engine

const watchPanel = () => $("watch-panel");

function setWatchState(state, text) {
  watchPanel().dataset.state = state;
  if (text !== undefined) $("watch-status").textContent = text;
  $("watch-start").disabled = state === "running";
  $("watch-stop").disabled = state !== "running";
  $("watch-download").disabled = !game || game.kind !== "watch" || state === "running";
}

// A row per seat: its server and its engine, named "first", "second", ... (each seat on the
// next server, round the servers); one server: no server to pick. Made again only when the
// game or its number of players changes.
const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth"];
let watchSeats = 2; // the seats of the rows
let sidesFor = "";

function syncWatchSides() {
  const key = `${app.game.name}/${seatCount()}`;
  if (key === sidesFor) return Promise.resolve();
  sidesFor = key;
  watchSeats = seatCount();
  const servers = app.servers.map((server) => ({ value: server.index, text: server.address }));
  $("watch-sides").innerHTML = Array.from({ length: watchSeats }, (_, side) => {
    const name = ORDINALS[side] || `player ${side + 1}`;
    return `<div class="side-pick"><span>${name}</span>
      <select id="watch-server-${side}" aria-label="${name} player's server"></select>
      <select id="watch-engine-${side}" aria-label="${name} player's engine"></select></div>`;
  }).join("");
  for (let side = 0; side < watchSeats; side++) {
    const select = $(`watch-server-${side}`);
    fillSelect(select, servers);
    select.value = String(app.servers[side % app.servers.length].index);
    select.hidden = servers.length < 2; // one server: nothing to pick
    select.onchange = () => fillWatchEngines(side).catch(showError);
  }
  return Promise.all(Array.from({ length: watchSeats }, (_, side) => fillWatchEngines(side)));
}

async function fillWatchEngines(side) {
  const server = Number($(`watch-server-${side}`).value);
  fillEngineSelect($(`watch-engine-${side}`), await enginesFor(server, app.game));
}

const watchPurposes = () => Array.from({ length: watchSeats }, (_, side) => `watch${side}`);

async function watch() {
  const sides = Array.from({ length: watchSeats }, (_, side) => ({
    server: Number($(`watch-server-${side}`).value),
    game: app.game.name,
    engine: $(`watch-engine-${side}`).value,
    options: {},
  }));
  game = {
    kind: "watch",
    players: sides.map((side) => `${side.engine} (${app.servers[side.server].address})`),
    over: false,
    stopped: false,
  };
  const moveTimeMs = Math.round(Number($("watch-movetime").value) * 1000);
  lock(true);
  setWatchState("running", "starting…");
  try {
    while (!game.stopped && app.mode === "watch") {
      const position = app.position;
      if (position.gameOver) {
        game.over = true;
        setWatchState("over", `game over: ${outcomeText(position.gameOver)}`);
        break;
      }
      if (position.toMove === -1) {
        await playChance();
        continue;
      }
      const side = position.toMove;
      const onInfo = (info) => {
        if (info.depth) $("watch-info").textContent = `${game.players[side]}: depth ${info.depth}, ${info.score.text}, ${(info.pvLabels || []).join(" ")}`;
      };
      const result = await engineMove(`watch${side}`, sides[side], { moveTimeMs }, onInfo, side);
      if (result) $("watch-info").textContent = playedText(game.players[side], side, result);
      else if (!game.stopped && !app.position.gameOver) throw new Error("the engine answered no move");
    }
  } catch (error) {
    showError(error);
  }
  if (!game.over) setWatchState("stopped", "stopped");
  game.over = true;
  lock(false);
  setWatchState(watchPanel().dataset.state);
}

async function stopWatch() {
  if (!game || game.kind !== "watch" || game.over) return;
  game.stopped = true;
  await Promise.all(watchPurposes().map(stopSearch)).catch(() => {});
}

export function initWatch() {
  $("watch-start").onclick = () => watch().catch(showError);
  $("watch-stop").onclick = () => stopWatch().catch(showError);
  $("watch-download").onclick = () => download(game.players).catch(showError);
  app.listeners.push(() => {
    syncWatchSides().catch(showError);
    if (game && game.kind === "watch" && app.mode !== "watch") stopWatch();
  });
  app.stoppers.push(async () => {
    await stopWatch();
    await Promise.all(watchPurposes().map(closeSession));
    if (game && game.kind === "watch") game = null;
    setWatchState("idle", "");
  });
  setWatchState("idle", "");
}
