// The evaluation graph: one point per ply that was searched, from the first player's point
// of view (up is good for the first player), proven results at the top or bottom edge.

const WIDTH = 100;
const HEIGHT = 30;

// A value in units to a height in [-1, 1]: about linear near 0, flat for big advantages.
const squash = (value) => Math.tanh(value / 3);

export function drawGraph(container, app, goTo) {
  const plies = Math.max(app.moves.length, app.evals.length - 1, 1);
  const x = (ply) => 2 + (ply / plies) * (WIDTH - 4);
  const y = (value) => HEIGHT / 2 - (HEIGHT / 2 - 1.5) * squash(value);
  const points = [];
  app.evals.forEach((value, ply) => {
    if (value !== null && value !== undefined) points.push([ply, value]);
  });
  let body = `<line class="axis" x1="0" y1="${HEIGHT / 2}" x2="${WIDTH}" y2="${HEIGHT / 2}"/>`;
  body += `<line class="cursor" x1="${x(app.cursor)}" y1="0" x2="${x(app.cursor)}" y2="${HEIGHT}"/>`;
  if (points.length > 1) {
    const line = points.map(([ply, value]) => `${x(ply).toFixed(2)},${y(value).toFixed(2)}`).join(" ");
    body += `<polyline class="eval" points="${line}"/>`;
  }
  for (const [ply, value] of points) {
    const proven = Math.abs(value) >= 1000 ? " proven" : "";
    body += `<circle class="point${proven}" data-ply="${ply}" cx="${x(ply).toFixed(2)}" cy="${y(value).toFixed(2)}" r="0.9"><title>ply ${ply}: ${value >= 1000 ? "won" : value <= -1000 ? "lost" : value.toFixed(2)}</title></circle>`;
  }
  const empty = points.length ? "" : `<p class="hint">analyse positions or play a game: their scores appear here</p>`;
  container.innerHTML = `<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="none" role="img" aria-label="evaluation graph">${body}</svg>${empty}`;
  container.dataset.points = String(points.length);
  container.onclick = (event) => {
    const point = event.target.closest("[data-ply]");
    if (point) goTo(Number(point.dataset.ply));
  };
}
