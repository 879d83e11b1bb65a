// Game records: a record imported whole (a PGN with its variations and comments, or the
// record an export writes), and the tree of moves exported with its variations, comments,
// evaluations and clock times (the server writes the record: PGN for chess).

import { $, app, showError, showRecord } from "./app.js";
import { post } from "./api.js";
import { pathTo, toRecord } from "./tree.js";

const MAX_RECORD_BYTES = 1_000_000; // the server reads no longer record

// Download `body` (the gateway's /api/export request) as the file the server writes.
export async function downloadRecord(body) {
  const response = await fetch("/api/export", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error((await response.json()).error);
  const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = name ? name[1] : "kibitz-game.json";
  document.body.append(link);
  link.click();
  link.remove();
}

// The game on the board as an export request: the moves to the board's node (the line's
// evaluations beside them for the JSON record), and the tree's nodes, all of them or
// (`pathOnly`) the path to the board's node.
export function exportBody(players, pathOnly) {
  const path = pathTo(app.node);
  const onPath = new Set(path);
  return {
    server: app.server,
    game: app.game.name,
    position: app.start,
    moves: app.moves.slice(0, app.cursor),
    players,
    evaluations: path.map((node) => node.eval ?? null),
    nodes: toRecord(app.root, pathOnly ? (node) => onPath.has(node) : undefined),
  };
}

function showImport(open) {
  $("import-box").hidden = !open;
  $("import-open").setAttribute("aria-expanded", String(open));
  if (open) $("import-text").focus();
}

// Read `text` as a record of the game picked and show its tree, at its start.
async function importRecord(text) {
  if (!text.trim()) throw new Error("nothing to import: paste a game or pick a file");
  const tree = await post("/api/import", { server: app.server, game: app.game.name, text });
  await showRecord(tree);
  showImport(false);
  $("import-text").value = "";
  $("moves").focus(); // the arrows walk the imported game
}

async function importFile() {
  const file = $("import-file").files[0];
  if (!file) return;
  $("import-file").value = "";
  if (file.size > MAX_RECORD_BYTES) throw new Error(`${file.name} is over 1 MB: no game record is that long`);
  $("import-text").value = await file.text();
  await importRecord($("import-text").value);
}

export function initRecords() {
  const guarded = (action) => () => action().catch(showError);
  $("import-open").onclick = () => showImport($("import-box").hidden);
  $("import-cancel").onclick = () => showImport(false);
  $("import-load").onclick = guarded(() => importRecord($("import-text").value));
  $("import-file").onchange = guarded(importFile);
  $("export-tree").onclick = guarded(() => downloadRecord(exportBody(Array.from({ length: Math.max(2, app.players) }, () => ""), false)));
}
