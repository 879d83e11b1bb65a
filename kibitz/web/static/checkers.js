// Plays of checkers entered die by die, as in GNU Backgammon's board: on a POINTS diagram
// with two dice whose legal moves are written as checker paths ("13/7* 8/7", "bar/22",
// "6/off", "8/4(2)", "pass": GNU Backgammon's notation), a click on a checker moves it by
// the larger die (shift-click or right-click: the smaller; the other where that one cannot
// be used), a click on a free point moves the checker that reaches it, a drag moves a
// checker to where it is dropped. The partial play is drawn on the board until it is a
// whole legal play, which is then played; Escape or Backspace (or "undo step") takes a step
// back. A step is offered only where some legal play goes on from it: the legal plays the
// server lists decide, the page only moves checkers (each step by one die, landing on no
// point the other side holds with two or more, bearing off once every checker is home).
//
// Only the page's own drawing of the position changes: boards.js draws it like any
// diagram, each step a target of its place; the legal moves are still the server's.

import { typing } from "./app.js";
import { draw } from "./boards.js";
import { escapeHtml as escape } from "./html.js";
import { bestMoves } from "./notes.js";

const BAR = 24; // the mover's bar, as its point 25
const OFF = -1;
const STEP = "step:"; // the board's targets: "step:INDEX", a click on the mover's point INDEX + 1
const SHORT_LIST = 5; // the best plays offered as buttons, where the analysis ranks them

// ------------------------------------------------------------------ plays as text

const PATH = /^((?:bar|off|\d{1,2})\*?(?:\/(?:bar|off|\d{1,2})\*?)+)(?:\((\d)\))?$/;

const pointIndex = (name) => (name === "bar" ? BAR : name === "off" ? OFF : Number(name) - 1);

// A play's checker moves ([source, end], each checker once) and the points it marks hit;
// null where `text` is not written as checker paths.
export function readPlay(text) {
  const words = text.trim().toLowerCase().split(/\s+/);
  if (words.length === 1 && words[0] === "pass") return { moves: [], hits: new Set() };
  const moves = [];
  const hits = new Set();
  for (const word of words) {
    const match = PATH.exec(word);
    if (!match) return null;
    const names = match[1].split("/");
    for (const name of names) if (name.endsWith("*")) hits.add(pointIndex(name.slice(0, -1)));
    const ends = [names[0], names[names.length - 1]].map((name) => pointIndex(name.replace("*", "")));
    for (let k = 0; k < Number(match[2] || 1); k++) moves.push(ends);
  }
  return { moves, hits };
}

const pointName = (index) => (index === BAR ? "bar" : index === OFF ? "off" : String(index + 1));

// ------------------------------------------------------------------ the board and its steps

function gauge(diagram, label, owner) {
  const found = diagram.gauges.find((g) => g.label === label && g.owner === owner);
  return found ? Number(found.value) : 0;
}

// The board from the mover's side: `mine` its checkers on its points 1-24 (index 0-23) and
// its bar (24); `theirs` the other side's on the same points, `theirBar` on its bar.
function readBoard(diagram, mover) {
  const mine = new Array(25).fill(0);
  const theirs = new Array(24).fill(0);
  for (const place of diagram.places) {
    const index = Number(place.label) - 1;
    if (!(index >= 0 && index < 24) || !place.count) continue;
    if (place.owner === mover) mine[index] = place.count;
    else if (place.owner >= 0) theirs[index] = place.count;
  }
  mine[BAR] = gauge(diagram, "bar", mover);
  return { mine, theirs, theirBar: gauge(diagram, "bar", 1 - mover), hits: [] };
}

const key = (mine) => mine.join(",");
const home = (mine) => mine.every((count, index) => !count || index < 6);

// Where a checker from `from` lands with `die` ({to, hit}), or null where it cannot.
function land(board, from, die) {
  const { mine, theirs } = board;
  if (!mine[from] || (mine[BAR] && from !== BAR)) return null;
  const to = from - die;
  if (to >= 0) return theirs[to] >= 2 ? null : { to, hit: theirs[to] === 1 };
  if (!home(mine)) return null;
  if (to < -1 && mine.slice(from + 1, BAR).some(Boolean)) return null; // a higher checker first
  return { to: OFF, hit: false };
}

function apply(board, step) {
  const mine = [...board.mine];
  const theirs = [...board.theirs];
  mine[step.from] -= 1;
  if (step.to !== OFF) mine[step.to] += 1;
  if (step.hit) theirs[step.to] = 0;
  return { mine, theirs, theirBar: board.theirBar + (step.hit ? 1 : 0), hits: [...board.hits, ...(step.hit ? [step.to] : [])] };
}

const without = (dice, die) => {
  const rest = [...dice];
  rest.splice(rest.indexOf(die), 1);
  return rest;
};

// ------------------------------------------------------------------ an entry

// The legal plays of `position` by the mover's checkers they leave (from `mine`, its
// checkers before): key -> [{ move, label, hits }] (plays that differ only in what they hit
// leave the same checkers).
function goals(position, mine) {
  const found = new Map();
  position.legalMoves.forEach((move, index) => {
    const play = readPlay(move);
    const after = [...mine];
    for (const [from, to] of play.moves) {
      after[from] -= 1;
      if (to !== OFF) after[to] += 1;
    }
    const label = (position.legalMoveLabels || [])[index] || move;
    found.set(key(after), [...(found.get(key(after)) || []), { move, label, hits: play.hits }]);
  });
  return found;
}

// The entry of one position: its legal plays by the board they leave, the steps so far.
class Entry {
  constructor(position, id) {
    const diagram = position.diagram;
    this.id = id;
    this.position = position;
    this.mover = position.toMove;
    this.start = readBoard(diagram, this.mover);
    const [a, b] = diagram.dice;
    this.dice = a === b ? [a, a, a, a] : [Math.max(a, b), Math.min(a, b)];
    this.goals = goals(position, this.start.mine);
    this.memo = new Map(); // "board|dice" -> whether a legal play goes on from there
    this.steps = [];
  }

  board() {
    return this.steps.reduce(apply, this.start);
  }

  remaining() {
    return this.steps.reduce((dice, step) => without(dice, step.die), this.dice);
  }

  // Whether some legal play goes on from `board` with `dice` left (or ends there).
  leads(board, dice) {
    const id = `${key(board.mine)}|${dice.join("")}`;
    if (!this.memo.has(id)) {
      this.memo.set(id, this.goals.has(key(board.mine)) || this.next(board, dice).length > 0);
    }
    return this.memo.get(id);
  }

  // The steps from `board` with `dice` that some legal play goes on from, the larger die first.
  next(board, dice) {
    const steps = [];
    for (const die of [...new Set(dice)].sort((x, y) => y - x)) {
      for (let from = BAR; from >= 0; from--) {
        const landing = land(board, from, die);
        if (!landing) continue;
        const step = { from, die, ...landing };
        if (this.leads(apply(board, step), without(dice, die))) steps.push(step);
      }
    }
    return steps;
  }

  options() {
    return this.next(this.board(), this.remaining());
  }

  // The step a click on point `index` makes: its checker by the preferred die (the larger,
  // or with `smaller` the smaller), else by the other; on a point it cannot move from, the
  // checker that lands there (from the bar first, else from furthest back).
  stepAt(index, smaller = false) {
    const steps = this.options();
    const own = steps.filter((step) => step.from === index);
    if (own.length) return smaller ? own[own.length - 1] : own[0];
    const landing = steps.filter((step) => step.to === index);
    landing.sort((x, y) => y.from - x.from || y.die - x.die);
    return landing[0] || null;
  }

  // The legal play the steps make, once they make a whole one (no step goes on from it).
  complete() {
    const board = this.board();
    const plays = this.goals.get(key(board.mine));
    if (!plays || this.options().length) return null;
    const hits = new Set(board.hits);
    const same = (play) => play.hits.size === hits.size && [...hits].every((point) => play.hits.has(point));
    return plays.find(same) || plays.find((play) => play.hits.size === hits.size) || plays[0];
  }

  text() {
    return this.steps.map((step) => `${pointName(step.from)}/${pointName(step.to)}${step.hit ? "*" : ""}`).join(" ");
  }

  // The position as drawn now: the steps made, the dice left; one target per place a click
  // moves a checker on (its checkers' step, else the step landing there).
  shown() {
    const { position, mover } = this;
    const board = this.board();
    const diagram = position.diagram;
    const at = (place) => Number(place.label) - 1;
    const places = diagram.places.map((place) => {
      const index = at(place);
      const own = board.mine[index];
      const other = board.theirs[index];
      const owner = own ? mover : other ? 1 - mover : -1;
      return { ...place, piece: owner >= 0 ? place.piece || "checker" : "", owner, count: own || other };
    });
    const targets = [];
    for (const place of places) {
      if (this.stepAt(at(place))) targets.push({ move: `${STEP}${at(place)}`, fromPlace: "", toPlaces: [place.id] });
    }
    const pips = (side) => side.reduce((sum, count, index) => sum + count * (index + 1), 0);
    const values = {
      bar: [board.mine[BAR], board.theirBar],
      off: [15 - board.mine.reduce((a, b) => a + b, 0), gauge(diagram, "off", 1 - mover)],
      pips: [pips(board.mine), pips([...board.theirs].reverse()) + 25 * board.theirBar],
    };
    const gauges = diagram.gauges.map((g) => {
      const value = values[g.label]?.[g.owner === mover ? 0 : 1];
      return value === undefined || !this.steps.length ? g : { ...g, value: String(value) };
    });
    const dice = this.remaining().slice(0, diagram.dice[0] === diagram.dice[1] ? 4 : 2);
    const shortList = this.shortList();
    return {
      ...position,
      legalMoves: shortList.map((play) => play.move),
      legalMoveLabels: shortList.map((play) => play.label),
      diagram: { ...diagram, places, targets, gauges, dice, highlights: this.steps.length ? [] : diagram.highlights },
    };
  }

  // The plays offered as buttons: the analysis' best few where it has ranked them, else all
  // where there are few (the list of legal moves below the board has every one).
  shortList() {
    const plays = [...this.goals.values()].flat();
    const byMove = new Map(plays.map((play) => [play.move, play]));
    const ranked = bestMoves(this.position).filter((move) => byMove.has(move));
    if (ranked.length) return ranked.slice(0, SHORT_LIST).map((move) => byMove.get(move));
    return plays.length <= SHORT_LIST ? plays : [];
  }
}

// ------------------------------------------------------------------ drawing and input

let entry = null; // the entry of the position last drawn
let shown = null; // what was drawn with it: { container, context }

// An entry for `position` where its plays can be entered die by die, else null.
function entryFor(position) {
  const diagram = position.diagram;
  if (!diagram || diagram.kind !== "POINTS" || position.toMove < 0 || diagram.dice.length !== 2) return null;
  if (!position.legalMoves.length || !position.legalMoves.every((move) => readPlay(move))) return null;
  const id = `${position.game}|${position.position}`;
  if (entry?.id !== id) entry = new Entry(position, id);
  return entry;
}

// Draw `position` in `container` as boards.js does; where its plays are entered die by die,
// with the steps made so far and their input (context as for `draw`).
export function drawBoard(container, position, context) {
  const current = entryFor(position);
  shown = current && context.enabled ? { container, context } : null;
  if (!current) return draw(container, position, context);
  const play = (move) => (move.startsWith(STEP) ? step(Number(move.slice(STEP.length))) : context.play(move));
  draw(container, current.shown(), { ...context, play });
  if (shown) decorate(container, current);
}

// The partial play under the board, the destinations marked, and the mouse's other inputs.
function decorate(container, current) {
  const hint = "click a checker: the larger die (shift-click or right-click: the smaller); Esc undoes a step";
  const made = current.steps.length ? `<span class="steps">${escape(current.text())}</span>` : `<span class="hint">${escape(hint)}</span>`;
  const undo = `<button type="button" class="undo-step"${current.steps.length ? "" : " disabled"}>undo step</button>`;
  container.insertAdjacentHTML("beforeend", `<div class="partial-play" aria-live="polite">${made} ${undo}</div>`);
  container.querySelector(".undo-step").onclick = (event) => {
    event.stopPropagation();
    undoStep();
  };
  const landings = new Set(current.options().map((option) => option.to));
  for (const element of container.querySelectorAll(".place[data-place]")) {
    const place = current.position.diagram.places.find((p) => p.id === element.dataset.place);
    if (landings.has(Number(place.label) - 1)) element.classList.add("step-to");
  }
  wireMouse(container);
}

const pointOf = (element) => {
  const place = element && element.closest("[data-place]");
  if (!place || !entry) return null;
  const found = entry.position.diagram.places.find((p) => p.id === place.dataset.place);
  return found ? Number(found.label) - 1 : null;
};

let smaller = false; // the click being handled asked for the smaller die (shift)
let dragged = null; // the point a drag started from

// Shift-clicks, right-clicks and drags, wired once per container (its handlers read the
// entry last drawn).
function wireMouse(container) {
  if (container.dataset.steps === "wired") return;
  container.dataset.steps = "wired";
  container.addEventListener("click", (event) => (smaller = event.shiftKey), true);
  container.addEventListener("contextmenu", (event) => {
    const index = pointOf(event.target);
    if (index === null || !shown) return;
    event.preventDefault();
    smaller = true;
    step(index);
  });
  container.addEventListener("pointerdown", (event) => (dragged = shown && event.button === 0 ? pointOf(event.target) : null));
  container.addEventListener("pointerup", (event) => {
    const from = dragged;
    dragged = null;
    const target = document.elementFromPoint(event.clientX, event.clientY);
    const to = pointOf(target);
    if (from === null || to === null || to === from || !shown) return;
    const found = entry.options().find((option) => option.from === from && option.to === to);
    if (found) make(found);
  });
}

// A click on the mover's point `index`: its step, if any.
function step(index) {
  const found = entry && entry.stepAt(index, smaller);
  smaller = false;
  if (found) make(found);
}

function make(found) {
  entry.steps.push(found);
  const play = entry.complete();
  if (play) return shown.context.play(play.move);
  redraw();
}

function undoStep() {
  if (!entry || !entry.steps.length) return false;
  entry.steps.pop();
  redraw();
  return true;
}

function redraw() {
  if (shown) drawBoard(shown.container, entry.position, shown.context);
}

document.addEventListener("keydown", (event) => {
  if (!["Escape", "Backspace"].includes(event.key) || !shown || typing(event.target)) return;
  if (undoStep()) event.preventDefault();
});
