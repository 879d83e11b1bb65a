// The gateway's HTTP API (docs/web.md): JSON requests, and searches as server-sent events
// read from a POST response (fetch + a stream reader: EventSource can only GET).

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.code = (body && body.code) || "";
  }
}

async function answer(response) {
  let body = null;
  const text = await response.text();
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = { error: text || response.statusText };
  }
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

async function request(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(0, { error: `the kibitz web gateway does not answer (${error.message})` });
  }
  return answer(response);
}

export const get = (path) => request("GET", path);
export const post = (path, body) => request("POST", path, body ?? {});
export const del = (path) => request("DELETE", path);

// POST `body` to `path` and call onEvent(name, data) for each event of the stream; resolves
// when the stream ends. An error answer before the stream starts rejects with an ApiError.
export async function stream(path, body, onEvent) {
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(0, { error: `the kibitz web gateway does not answer (${error.message})` });
  }
  if (!response.ok) await answer(response);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch (error) {
      throw new ApiError(0, { error: `the connection to the kibitz web gateway broke (${error.message})` });
    }
    if (chunk.done) break;
    buffer += decoder.decode(chunk.value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) name = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
      }
      if (data.length) onEvent(name, JSON.parse(data.join("\n")));
    }
  }
}
