// Win, gammon and backgammon chances in the root-move table, as GNU Backgammon shows them:
// W, W(g), W(bg) and L, L(g), L(bg) of the side to move, cumulative (a gammon includes a
// backgammon); the scores carry them where the game estimates them (backgammon, expectimax).

const FIELDS = [
  ["W", "winProbability"],
  ["W(g)", "winGammonProbability"],
  ["W(bg)", "winBackgammonProbability"],
  ["L", "lossProbability"],
  ["L(g)", "lossGammonProbability"],
  ["L(bg)", "lossBackgammonProbability"],
];

// Whether the root moves' scores carry the chances.
export const hasChances = (rootMoves) => rootMoves.some((move) => move.score.winGammonProbability !== undefined);

export const CHANCE_HEADS = FIELDS.map(([head]) => head);

// The six cells of a score: its chances to three decimals ("0.523"), empty where missing.
export function chanceCells(score) {
  return FIELDS.map(([head, field]) => {
    const value = score[field];
    const text = value === undefined ? "" : Number(value).toFixed(3);
    return `<td class="chance-cell" data-chance="${head}">${text}</td>`;
  });
}
