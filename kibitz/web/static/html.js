// Text from the servers and files (engine, option and game names, combo choices, moves,
// messages, match players) is never markup: the page sets it as textContent, or writes it
// through escapeHtml where it builds HTML.

const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export const escapeHtml = (text) => String(text ?? "").replace(/[&<>"']/g, (c) => ENTITIES[c]);

// Replace the options of `select` with `items`: { value, text, title } (text: the value).
export function fillSelect(select, items) {
  select.replaceChildren(
    ...items.map(({ value, text, title }) => {
      const option = document.createElement("option");
      option.value = String(value);
      option.textContent = String(text ?? value);
      if (title) option.title = String(title);
      return option;
    }),
  );
}
