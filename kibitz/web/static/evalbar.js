// The evaluation bar beside the board: the analysis' score as the first player's share of a
// bar (as lichess's is White's), the first player's colour growing from their side of the
// board (the bottom, the top when the board is flipped: style.css), labelled with the score
// as the server words it. analysis.js shows it with each report and hides it whenever it
// clears the analysis, so it always belongs to the position on the board.

import { $, app } from "./app.js";

// Lichess's mapping of centipawns to winning chances, per unit (100 centi, a pawn).
const LOGISTIC_SLOPE = 0.368208;

// A score as the share of the bar it gives the player of its point of view (`score.player`),
// in [0, 1]:
// - a proven result (WIN, LOSS, DRAW): all, nothing, half;
// - an engine's probabilities (MCTS, `winProbability`): win + draw / 2, the expected score;
// - a result that is a bound (a solving search's `>=win in 9`, MCTS's `<=draw`): as the result;
// - a heuristic value v in units: the logistic 1 / (1 + e^(-0.368 v)), lichess's curve:
//   +1 gives 59%, +3 75%, +5 86%, +10 98%. v is `firstPlayerValue` (the gateway's number
//   from the first player's side, which also reads backgammon's expected value), turned to
//   the score's side.
const RESULTS = { WIN: 1, LOSS: 0, DRAW: 0.5 };

function ownShare(score) {
  if (score.proven) return RESULTS[score.kind];
  if (score.winProbability !== undefined) {
    return Number(score.winProbability) + Number(score.drawProbability || 0) / 2;
  }
  if (score.kind in RESULTS) return RESULTS[score.kind];
  if (score.firstPlayerValue === null || score.firstPlayerValue === undefined) return null;
  const value = Number(score.firstPlayerValue) * (Number(score.player || 0) === 0 ? 1 : -1);
  return 1 / (1 + Math.exp(-LOGISTIC_SLOPE * value));
}

// The first player's share of the bar, or null where the game has no such share (more or
// fewer than two players, a score without a value).
export function firstPlayerShare(score, players) {
  if (!score || players !== 2) return null;
  const share = ownShare(score);
  if (share === null || share === undefined || !Number.isFinite(share)) return null;
  return Number(score.player || 0) === 0 ? share : 1 - share;
}

export function showEvalBar(score) {
  const share = firstPlayerShare(score, app.players);
  if (share === null) return hideEvalBar();
  const bar = $("eval-bar");
  const percent = Math.round(share * 1000) / 10;
  const colors = app.position?.diagram?.colors || [];
  bar.style.setProperty("--eval-first", colors[0] || "");
  bar.style.setProperty("--eval-second", colors[1] || "");
  bar.querySelector(".eval-fill").style.height = `${percent}%`;
  $("eval-text").textContent = score.text;
  const side = app.playerName(Number(score.player || 0));
  bar.setAttribute("aria-valuenow", String(percent));
  bar.setAttribute("aria-valuetext", `${score.text} for ${side} (${app.playerName(0)} ${percent}%)`);
  bar.dataset.share = share.toFixed(4);
  bar.hidden = false;
}

export function hideEvalBar() {
  const bar = $("eval-bar");
  bar.hidden = true;
  bar.dataset.share = "";
  $("eval-text").textContent = "";
}
