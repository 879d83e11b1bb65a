// The engine picker (ListEngines: the engines that play the game, their options) and the
// page's sessions on the gateway, one per purpose ("analyse", "play", "watch0", ...).

import { ApiError, del, get, post, stream } from "./api.js";
import { fillSelect } from "./html.js";

const enginesByServer = new Map(); // server index -> its [EngineInfo], once fetched

// The engines of `server`, fetched once (the first caller starts the fetch, the others wait
// for it); a fetch that failed is made again by the next caller.
export function enginesOf(server) {
  if (!enginesByServer.has(server)) {
    const engines = get(`/api/engines?server=${server}`).then((answer) => answer.engines);
    engines.catch(() => enginesByServer.delete(server));
    enginesByServer.set(server, engines);
  }
  return enginesByServer.get(server);
}

// The engines of `server` that play `game`, the game's default engine first.
export async function enginesFor(server, game) {
  const engines = (await enginesOf(server)).filter((engine) => engine.games.includes(game.name));
  return engines.sort((a, b) => (b.name === game.defaultEngine) - (a.name === game.defaultEngine));
}

export function fillEngineSelect(select, engines) {
  fillSelect(
    select,
    engines.map((engine) => ({ value: engine.name, text: engine.name, title: engine.description })),
  );
}

// The option inputs of `engine` inside `container`; `read()` answers the changed ones.
export function optionsForm(container, engine) {
  container.replaceChildren();
  const inputs = [];
  for (const option of engine ? engine.options : []) {
    const label = document.createElement("label");
    label.className = "option";
    label.title = option.description;
    let input;
    if (option.type === "check") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = option.default === "true";
    } else if (option.type === "combo") {
      input = document.createElement("select");
      fillSelect(input, option.choices.map((choice) => ({ value: choice })));
      input.value = option.default;
    } else {
      input = document.createElement("input");
      input.type = option.type === "spin" ? "number" : "text";
      if (option.min !== undefined) input.min = option.min;
      if (option.max !== undefined) input.max = option.max;
      input.value = option.default;
    }
    input.dataset.option = option.name;
    label.append(`${option.name} `, input);
    container.append(label);
    inputs.push([option, input]);
  }
  return () => {
    const changed = {};
    for (const [option, input] of inputs) {
      const value = option.type === "check" ? String(input.checked) : input.value;
      if (value !== option.default) changed[option.name] = value;
    }
    return changed;
  };
}

// ------------------------------------------------------------------ sessions

const sessions = new Map(); // purpose -> { key, id }

// The gateway session for `purpose`, opened for { server, game, engine, options } (a
// different choice closes the old one first).
export async function session(purpose, choice) {
  const key = JSON.stringify(choice);
  const known = sessions.get(purpose);
  if (known && known.key === key) return known.id;
  if (known) await closeSession(purpose);
  const answer = await post("/api/sessions", choice);
  sessions.set(purpose, { key, id: answer.id });
  return answer.id;
}

export async function closeSession(purpose) {
  const known = sessions.get(purpose);
  if (!known) return;
  sessions.delete(purpose);
  try {
    await del(`/api/sessions/${known.id}`);
  } catch {
    // gone already
  }
}

export async function closeAll() {
  await Promise.all([...sessions.keys()].map(closeSession));
}

// On leaving the page: close every session (keepalive: the request outlives the page).
export function closeOnLeave() {
  window.addEventListener("pagehide", () => {
    for (const { id } of sessions.values()) {
      fetch(`/api/sessions/${id}`, { method: "DELETE", keepalive: true }).catch(() => {});
    }
    sessions.clear();
  });
}

// Search with the session of `purpose`: onInfo(info) for each progress report; resolves
// with the result, rejects with an ApiError.
export async function search(purpose, choice, request, onInfo) {
  const id = await session(purpose, choice);
  let result = null;
  let failure = null;
  await stream(`/api/sessions/${id}/search`, request, (name, data) => {
    if (name === "info") onInfo(data);
    else if (name === "result") result = data;
    else if (name === "error") failure = new ApiError(data.status || 502, data);
  });
  if (failure) throw failure;
  if (!result) throw new ApiError(0, { error: "the search ended without a result" });
  return result;
}

export async function stopSearch(purpose) {
  const known = sessions.get(purpose);
  if (known) await post(`/api/sessions/${known.id}/stop`);
}
