/* Parlour playground: a Discord channel look-alike talking to the playground's API.
 *
 * The server pushes what the chosen member sees over a websocket (/api/ws); actions are
 * POSTed (/api/command, /api/click, /api/select, /api/autocomplete, /api/modal) and the bot's
 * answers arrive as pushes. Plain JavaScript, no build step, no dependencies.
 */
"use strict";

const $ = (selector, root = document) => root.querySelector(selector);
const params = new URLSearchParams(location.search);

const app = {
  state: null, // GET /api/state
  member: params.get("member") || localStorage.getItem("parlour.member") || "alice",
  channel: params.get("channel") || "games",
  rendered: new Map(), // message id -> {key, el}
  dismissed: new Set(),
  commandsVersion: null,
  online: false,
  ws: null,
  openSelect: null,
};

const AVATAR_COLOURS = ["#5865f2", "#eb459e", "#3ba55c", "#e67e22", "#ed4245", "#757e8a"];
const BOT_SVG =
  '<svg viewBox="0 0 24 24" aria-hidden="true"><rect x="5" y="2.5" width="14" height="19" rx="2.5" fill="#fff"/>' +
  '<path d="M12 6.5c2.2 2.6 4.3 3.9 4.3 6a2.2 2.2 0 0 1-3.7 1.6l.9 3.4h-3l.9-3.4a2.2 2.2 0 0 1-3.7-1.6c0-2.1 2.1-3.4 4.3-6z" fill="#2e8b57"/></svg>';
const EYE_SVG =
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path fill="currentColor" d="M12 5C5.6 5 2 12 2 12s3.6 7 10 7 10-7 10-7-3.6-7-10-7zm0 11.5A4.5 4.5 0 1 1 12 7.5a4.5 4.5 0 0 1 0 9zm0-7a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5z"/></svg>';
const OPTION_TYPES = { 3: "text", 4: "integer", 5: "true or false", 6: "member", 7: "channel", 8: "role", 9: "member or role", 10: "number", 11: "file" };

// ------------------------------------------------------------------ small helpers

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

async function api(path, body) {
  const init = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, init);
  let data;
  try {
    data = await response.json();
  } catch {
    data = { ok: false, error: `${response.status} ${response.statusText}` };
  }
  if (!response.ok || data.ok === false) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function users() {
  if (!app.state) return [];
  return [app.state.bot, ...app.state.members];
}

function userById(id) {
  return users().find((u) => u.id === id);
}

function me() {
  return app.state && app.state.members.find((m) => m.name === app.member);
}

function colourOf(user) {
  const index = app.state ? app.state.members.findIndex((m) => m.id === user.id) : -1;
  if (index >= 0) return AVATAR_COLOURS[index % AVATAR_COLOURS.length];
  let hash = 0;
  for (const c of user.name || "?") hash = (hash * 31 + c.charCodeAt(0)) | 0;
  return AVATAR_COLOURS[Math.abs(hash) % AVATAR_COLOURS.length];
}

function avatar(user, extra) {
  const node = el("div", "avatar" + (extra ? " " + extra : ""));
  if (user.bot) {
    node.classList.add("bot");
    node.innerHTML = BOT_SVG;
  } else {
    node.textContent = (user.name || "?").slice(0, 1).toUpperCase();
    node.style.background = colourOf(user);
  }
  node.setAttribute("aria-hidden", "true");
  return node;
}

function formatTime(seconds) {
  const when = new Date(seconds * 1000);
  const time = when.toLocaleTimeString([], { hour: "numeric", minute: "2-digit" });
  const today = new Date();
  if (when.toDateString() === today.toDateString()) return `Today at ${time}`;
  const yesterday = new Date(today.getTime() - 86400000);
  if (when.toDateString() === yesterday.toDateString()) return `Yesterday at ${time}`;
  return `${when.toLocaleDateString()} ${time}`;
}

function formatStamp(seconds, style) {
  const when = new Date(seconds * 1000);
  switch (style) {
    case "t": return when.toLocaleTimeString([], { hour: "numeric", minute: "2-digit" });
    case "T": return when.toLocaleTimeString();
    case "d": return when.toLocaleDateString();
    case "D": return when.toLocaleDateString([], { dateStyle: "long" });
    case "F": return when.toLocaleString([], { dateStyle: "full", timeStyle: "short" });
    case "R": {
      const diff = (when.getTime() - Date.now()) / 1000;
      const rtf = new Intl.RelativeTimeFormat([], { numeric: "auto" });
      const units = [["year", 31536000], ["month", 2592000], ["day", 86400], ["hour", 3600], ["minute", 60]];
      for (const [unit, size] of units) if (Math.abs(diff) >= size) return rtf.format(Math.round(diff / size), unit);
      return rtf.format(Math.round(diff), "second");
    }
    default: return when.toLocaleString([], { dateStyle: "long", timeStyle: "short" });
  }
}

function timestampHtml(seconds, style) {
  // Discord shows a timestamp in the reader's own time zone; a relative one counts on by itself.
  const full = formatStamp(seconds, "F");
  return `<time class="timestamp" data-ts="${seconds}" data-style="${style}" title="${escapeHtml(full)}">${escapeHtml(formatStamp(seconds, style))}</time>`;
}

function tickTimestamps() {
  for (const node of document.querySelectorAll('time.timestamp[data-style="R"]')) {
    const text = formatStamp(Number(node.dataset.ts), "R");
    if (node.textContent !== text) node.textContent = text;
  }
}
setInterval(tickTimestamps, 1000);

function hexColour(value, fallback) {
  if (value === null || value === undefined) return fallback;
  return "#" + Number(value).toString(16).padStart(6, "0");
}

// ------------------------------------------------------------------ markdown (Discord's subset)

function markdown(text) {
  if (!text) return "";
  const stash = [];
  const keep = (html) => `\u0000${stash.push(html) - 1}\u0000`;
  const link = (url, label) =>
    keep(`<a href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">${escapeHtml(label)}</a>`);
  text = text.replace(/```(?:[\w+-]*\n)?([\s\S]*?)```/g, (_, code) => keep(`<pre><code>${escapeHtml(code.replace(/^\n+|\n+$/g, ""))}</code></pre>`));
  text = text.replace(/`([^`\n]+)`/g, (_, code) => keep(`<code>${escapeHtml(code)}</code>`));
  text = text.replace(/<@!?(\d+)>/g, (_, id) => {
    const user = userById(id);
    return keep(`<span class="mention">@${escapeHtml(user ? user.name : "unknown-user")}</span>`);
  });
  text = text.replace(/<#(\d+)>/g, (_, id) => {
    const chan = app.state && app.state.channels.find((c) => c.id === id);
    return keep(`<span class="mention">#${escapeHtml(chan ? chan.name : "unknown")}</span>`);
  });
  text = text.replace(/<@&(\d+)>/g, () => keep('<span class="mention">@role</span>'));
  text = text.replace(/<t:(-?\d+)(?::([tTdDfFR]))?>/g, (_, ts, style) => keep(timestampHtml(Number(ts), style || "f")));
  text = text.replace(/<a?:(\w+):\d+>/g, (_, name) => `:${name}:`);
  text = text.replace(/\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g, (_, label, url) => link(url, label));
  text = text.replace(/https?:\/\/[^\s<]+[^\s<.,:;"')\]]/g, (url) => link(url, url));
  let html = escapeHtml(text)
    .replace(/\*\*([\s\S]+?)\*\*/g, "<strong>$1</strong>")
    .replace(/__([\s\S]+?)__/g, "<u>$1</u>")
    .replace(/(^|[^*\w])\*(?![\s*])([^*\n]+?)\*(?!\w)/g, "$1<em>$2</em>")
    .replace(/(^|[^\w])_(?!\s)([^_\n]+?)_(?!\w)/g, "$1<em>$2</em>")
    .replace(/~~([\s\S]+?)~~/g, "<s>$1</s>")
    .replace(/\|\|([\s\S]+?)\|\|/g, '<span class="spoiler">$1</span>');
  const out = [];
  let list = null;
  let quote = null;
  const flush = () => {
    if (list && list.ordered) out.push(`<ol start="${list.start}">${list.map((item) => `<li>${item}</li>`).join("")}</ol>`);
    else if (list) out.push(`<ul>${list.map((item) => `<li>${item}</li>`).join("")}</ul>`);
    if (quote) out.push(`<blockquote>${quote.join("<br>")}</blockquote>`);
    list = quote = null;
  };
  const lines = html.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const last = i === lines.length - 1;
    let m;
    if ((m = line.match(/^&gt;&gt;&gt; ?(.*)$/))) {
      // ">>> " quotes the rest of the message
      flush();
      quote = [m[1], ...lines.slice(i + 1)];
      break;
    } else if ((m = line.match(/^&gt; ?(.*)$/))) {
      if (list) flush();
      (quote = quote || []).push(m[1]);
    } else if ((m = line.match(/^-# (.+)$/))) {
      flush();
      out.push(`<div class="subtext">${m[1]}</div>`);
    } else if ((m = line.match(/^\s*[-*] (.+)$/))) {
      if (quote || (list && list.ordered)) flush();
      (list = list || Object.assign([], { ordered: false })).push(m[1]);
    } else if ((m = line.match(/^\s*(\d{1,9})\. (.+)$/))) {
      if (quote || (list && !list.ordered)) flush();
      (list = list || Object.assign([], { ordered: true, start: Number(m[1]) })).push(m[2]);
    } else if ((m = line.match(/^(#{1,3}) (.+)$/))) {
      flush();
      out.push(`<h${m[1].length}>${m[2]}</h${m[1].length}>`);
    } else {
      flush();
      out.push(line + (last ? "" : "<br>"));
    }
  }
  flush();
  html = out.join("");
  for (let pass = 0; pass < 3 && html.includes("\u0000"); pass++) {
    html = html.replace(/\u0000(\d+)\u0000/g, (_, i) => stash[Number(i)]);
  }
  return html;
}

// ------------------------------------------------------------------ messages

function groupsWith(prev, message) {
  return (
    prev !== null &&
    !message.command &&
    !prev.loading &&
    prev.author.id === message.author.id &&
    prev.ephemeral === message.ephemeral &&
    message.timestamp - prev.timestamp < 420
  );
}

function mentionsMe(message) {
  const self = me();
  if (!self) return false;
  const tag = `<@${self.id}>`;
  return message.content.includes(tag) || JSON.stringify(message.embeds).includes(tag);
}

function renderMessage(message, compact) {
  const item = el("li", "msg");
  item.dataset.id = message.id;
  if (compact) item.classList.add("compact");
  if (message.ephemeral) item.classList.add("ephemeral");
  if (mentionsMe(message)) item.classList.add("mentioned");
  if (message.command) {
    const line = el("div", "reply-line");
    line.append(avatar(message.command.user), el("span", "who", message.command.user.name), " used ", el("span", "cmd", "/" + message.command.name));
    item.append(line);
  }
  item.append(avatar(message.author));
  const body = el("div", "body");
  if (!compact) {
    const head = el("div", "head");
    head.append(el("span", "name" + (message.author.bot ? " bot-name" : ""), message.author.name));
    if (message.author.bot) head.append(el("span", "tag", "App"));
    const time = el("time", null, formatTime(message.timestamp));
    time.dateTime = new Date(message.timestamp * 1000).toISOString();
    head.append(time);
    body.append(head);
  }
  if (message.loading) {
    const thinking = el("div", "thinking", `${message.author.name} is thinking`);
    const dots = el("span", "dots");
    dots.innerHTML = "<span></span><span></span><span></span>";
    thinking.append(dots);
    body.append(thinking);
  } else {
    if (message.content) {
      const content = el("div", "content");
      content.innerHTML = markdown(message.content);
      if (message.edited) content.append(el("span", "edited", "(edited)"));
      body.append(content);
    }
    const files = message.attachments.filter((a) => !a.shown_elsewhere);
    if (files.length) body.append(renderAttachments(files));
    if (message.embeds.length) {
      const embeds = el("div", "embeds");
      for (const embed of message.embeds) embeds.append(renderEmbed(embed));
      body.append(embeds);
    }
    if (message.components.length) body.append(renderComponents(message));
  }
  if (message.ephemeral) {
    const note = el("div", "ephemeral-note");
    note.innerHTML = EYE_SVG;
    note.append(el("span", null, "Only you can see this"), " • ");
    const dismiss = el("button", null, "Dismiss message");
    dismiss.type = "button";
    dismiss.addEventListener("click", () => {
      app.dismissed.add(message.id);
      item.remove();
      app.rendered.delete(message.id);
    });
    note.append(dismiss);
    body.append(note);
  }
  item.append(body);
  return item;
}

function image(url, alt, width, height, className) {
  const img = el("img", className);
  img.src = url;
  img.alt = alt || "";
  if (alt) img.title = alt;
  if (width && height) {
    img.width = width;
    img.height = height;
  }
  img.loading = "eager";
  img.addEventListener("load", () => app.stick && scrollToBottom());
  img.addEventListener("click", () => openViewer(url, alt));
  return img;
}

function renderAttachments(files) {
  const box = el("div", "attachments");
  for (const file of files) {
    if (file.image) {
      box.append(image(file.url, file.description || file.filename, file.width, file.height, "attachment-image"));
    } else {
      const card = el("div", "file");
      card.append(el("span", "icon", "📄"));
      const texts = el("div");
      const link = el("a", null, file.filename);
      link.href = file.url;
      link.download = file.filename;
      texts.append(link, el("div", "size", `${(file.size / 1024).toFixed(1)} KB`));
      card.append(texts);
      box.append(card);
    }
  }
  return box;
}

function renderEmbed(embed) {
  const box = el("div", "embed");
  box.style.borderLeftColor = hexColour(embed.color, "#1e1f22");
  if (embed.thumbnail && embed.thumbnail.url) {
    const thumb = el("div", "embed-thumb");
    thumb.append(image(embed.thumbnail.url, "", embed.thumbnail.width, embed.thumbnail.height));
    box.append(thumb);
  }
  if (embed.author && embed.author.name) {
    const author = el("div", "embed-author");
    if (embed.author.icon_url) author.append(image(embed.author.icon_url, ""));
    author.append(el("span", null, embed.author.name));
    box.append(author);
  }
  if (embed.title) {
    const title = el("div", "embed-title");
    if (embed.url) {
      const a = el("a", null, embed.title);
      a.href = embed.url;
      a.target = "_blank";
      title.append(a);
    } else title.textContent = embed.title;
    box.append(title);
  }
  if (embed.description) {
    const description = el("div", "embed-description content");
    description.innerHTML = markdown(embed.description);
    box.append(description);
  }
  if (embed.fields && embed.fields.length) {
    const fields = el("div", "embed-fields");
    for (const field of embed.fields) {
      const f = el("div", "embed-field" + (field.inline ? " inline" : ""));
      const name = el("div", "embed-field-name content");
      name.innerHTML = markdown(field.name);
      const value = el("div", "embed-field-value content");
      value.innerHTML = markdown(field.value);
      f.append(name, value);
      fields.append(f);
    }
    box.append(fields);
  }
  if (embed.image && embed.image.url) {
    const wrap = el("div", "embed-image");
    wrap.append(image(embed.image.url, embed.image.description || "", embed.image.width, embed.image.height));
    box.append(wrap);
  }
  if ((embed.footer && embed.footer.text) || embed.timestamp) {
    const parts = [];
    if (embed.footer && embed.footer.text) parts.push(embed.footer.text);
    if (embed.timestamp) parts.push(formatTime(Date.parse(embed.timestamp) / 1000));
    box.append(el("div", "embed-footer", parts.join(" • ")));
  }
  return box;
}

// ------------------------------------------------------------------ components

function renderComponents(message) {
  const box = el("div", "components");
  for (const component of message.components) box.append(renderComponent(message, component));
  return box;
}

function renderComponent(message, c) {
  switch (c.type) {
    case 1: {
      const row = el("div", "action-row");
      for (const child of c.components || []) row.append(renderComponent(message, child));
      return row;
    }
    case 2:
      return renderButton(message, c);
    case 3: case 5: case 6: case 7: case 8:
      return renderSelect(message, c);
    case 9: {
      const section = el("div", "v2-section");
      const texts = el("div", "texts");
      for (const child of c.components || []) texts.append(renderComponent(message, child));
      section.append(texts);
      if (c.accessory) section.append(renderComponent(message, c.accessory));
      return section;
    }
    case 10: {
      const text = el("div", "content");
      text.innerHTML = markdown(c.content || "");
      return text;
    }
    case 11: {
      const thumb = el("div", "v2-thumb");
      thumb.append(image((c.media || {}).url, c.description || ""));
      return thumb;
    }
    case 12: {
      const items = c.items || [];
      const gallery = el("div", "v2-gallery" + (items.length === 1 ? " single" : ""));
      for (const item of items) gallery.append(image((item.media || {}).url, item.description || ""));
      return gallery;
    }
    case 13: {
      const card = el("div", "file");
      const url = (c.file || {}).url || "";
      card.append(el("span", "icon", "📄"), el("a", null, url.split("/").pop()));
      card.lastChild.href = url;
      return card;
    }
    case 14:
      return el("div", "v2-separator" + (c.divider !== false ? " divider" : "") + (c.spacing === 2 ? " large" : ""));
    case 17: {
      const container = el("div", "v2-container");
      if (c.accent_color !== undefined && c.accent_color !== null) container.style.borderLeftColor = hexColour(c.accent_color);
      for (const child of c.components || []) container.append(renderComponent(message, child));
      return container;
    }
    default:
      return el("div", "content", `[component type ${c.type}]`);
  }
}

function emojiNode(emoji) {
  const span = el("span", "emoji", emoji.id ? `:${emoji.name}:` : emoji.name);
  span.setAttribute("aria-hidden", "true");
  return span;
}

function renderButton(message, c) {
  const style = c.style || 2;
  if (style === 5) {
    const a = el("a", "btn btn-5");
    a.href = c.url;
    a.target = "_blank";
    a.rel = "noopener noreferrer";
    if (c.emoji) a.append(emojiNode(c.emoji));
    if (c.label) a.append(el("span", null, c.label));
    a.append(el("span", "external", "↗"));
    return a;
  }
  const button = el("button", `btn btn-${style}`);
  button.type = "button";
  button.disabled = Boolean(c.disabled) || style === 6;
  button.dataset.customId = c.custom_id || "";
  if (c.emoji) button.append(emojiNode(c.emoji));
  if (c.label) button.append(el("span", "label", c.label));
  else if (c.emoji) button.setAttribute("aria-label", c.emoji.name);
  button.addEventListener("click", () =>
    act(button, message, "/api/click", { message_id: message.id, custom_id: c.custom_id }),
  );
  return button;
}

function selectOptions(c) {
  if (c.type === 3) return c.options || [];
  if (!app.state) return [];
  if (c.type === 8) return app.state.channels.map((ch) => ({ label: "#" + ch.name, value: ch.name }));
  if (c.type === 6) return [];
  return app.state.members.map((m) => ({ label: m.name, value: m.name }));
}

function renderSelect(message, c) {
  const wrap = el("div", "select");
  const options = selectOptions(c);
  const multi = (c.max_values ?? 1) > 1;
  const min = c.min_values ?? 1;
  const max = c.max_values ?? 1;
  const initial = new Set(options.filter((o) => o.default).map((o) => o.value));
  const chosen = new Set(initial);
  const box = el("button", "select-box");
  box.type = "button";
  box.disabled = Boolean(c.disabled);
  box.dataset.customId = c.custom_id || "";
  box.setAttribute("aria-haspopup", "listbox");
  const value = el("span", "value");
  const chev = el("span", "chev", "⌄");
  box.append(value, chev);
  const menu = el("div", "select-menu");
  menu.setAttribute("role", "listbox");
  menu.hidden = true;
  const showValue = () => {
    const labels = options.filter((o) => chosen.has(o.value)).map((o) => o.label);
    value.textContent = labels.length ? labels.join(", ") : c.placeholder || "Make a selection";
    value.classList.toggle("placeholder", !labels.length);
    box.setAttribute("aria-label", value.textContent);
  };
  const send = async (values) => {
    await act(wrap, message, "/api/select", { message_id: message.id, custom_id: c.custom_id, values });
    // As in Discord: unless the bot edited the message, the menu shows its defaults again.
    chosen.clear();
    initial.forEach((v) => chosen.add(v));
    menu.querySelectorAll(".select-option").forEach((row) => row.classList.toggle("chosen", chosen.has(row.dataset.value)));
    showValue();
  };
  const close = (apply) => {
    if (menu.hidden) return;
    menu.hidden = true;
    wrap.classList.remove("open");
    if (app.openSelect && app.openSelect.wrap === wrap) app.openSelect = null;
    const changed = chosen.size !== initial.size || [...chosen].some((v) => !initial.has(v));
    if (apply && multi && changed && chosen.size >= min && chosen.size <= max) send([...chosen]);
  };
  for (const option of options) {
    const row = el("div", "select-option");
    row.setAttribute("role", "option");
    row.dataset.value = option.value;
    if (option.emoji) row.append(emojiNode(option.emoji));
    const texts = el("div", "texts");
    texts.append(el("div", "label", option.label));
    if (option.description) texts.append(el("div", "desc", option.description));
    row.append(texts);
    if (multi) row.append(el("span", "check"));
    row.classList.toggle("chosen", chosen.has(option.value));
    row.addEventListener("click", (event) => {
      event.stopPropagation();
      if (!multi) {
        chosen.clear();
        chosen.add(option.value);
        showValue();
        close(false);
        send([option.value]);
        return;
      }
      if (chosen.has(option.value)) chosen.delete(option.value);
      else if (chosen.size < max) chosen.add(option.value);
      row.classList.toggle("chosen", chosen.has(option.value));
      showValue();
    });
    menu.append(row);
  }
  box.addEventListener("click", (event) => {
    event.stopPropagation();
    if (!menu.hidden) return close(true);
    if (app.openSelect) app.openSelect.close(true);
    menu.hidden = false;
    wrap.classList.add("open");
    placeMenu(wrap, menu);
    app.openSelect = { wrap, close };
  });
  showValue();
  wrap.append(box, menu);
  return wrap;
}

const MENU_HEIGHT = 320; // the tallest a menu opens, in CSS pixels, as in Discord

function placeMenu(wrap, menu) {
  // Open where the menu fits in the message list: below the box if it has room, else on the
  // side with more room, no taller than that side, so every option can be reached by scrolling
  // the menu itself. Long lists on a phone otherwise open mostly below the screen.
  wrap.classList.remove("up");
  menu.style.maxHeight = "";
  const area = scroller.getBoundingClientRect();
  const box = wrap.querySelector(".select-box").getBoundingClientRect();
  const wanted = Math.min(menu.scrollHeight, MENU_HEIGHT);
  const below = area.bottom - box.bottom - 4;
  const above = box.top - area.top - 4;
  const up = below < wanted && above > below;
  wrap.classList.toggle("up", up);
  menu.style.maxHeight = Math.max(Math.min(wanted, up ? above : below), 0) + "px";
}

document.addEventListener("click", () => app.openSelect && app.openSelect.close(true));

async function act(control, message, path, body) {
  const pending = control.classList.contains("select") ? control.querySelector(".select-box") : control;
  pending.classList.add("pending");
  try {
    const answer = await api(path, { member: app.member, ...body });
    if (answer.modal) openModal(answer);
  } catch (error) {
    const item = document.querySelector(`.msg[data-id="${message.id}"] .body`);
    if (item) {
      const note = el("div", "action-error", error.message);
      item.append(note);
      setTimeout(() => note.remove(), 8000);
    } else toast(error.message);
  } finally {
    pending.classList.remove("pending");
  }
}

// ------------------------------------------------------------------ the message list

const scroller = $("#scroller");

function atBottom() {
  return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80;
}

function scrollToBottom() {
  scroller.scrollTop = scroller.scrollHeight;
}

function renderMessages(messages) {
  const list = $("#messages");
  app.stick = atBottom();
  const seen = new Set();
  let prev = null;
  let cursor = list.firstElementChild;
  for (const message of messages) {
    if (app.dismissed.has(message.id)) continue;
    const compact = groupsWith(prev, message);
    const key = JSON.stringify([message, compact, app.member]);
    let entry = app.rendered.get(message.id);
    if (!entry || entry.key !== key) {
      const node = renderMessage(message, compact);
      if (entry) {
        if (entry.el === cursor) cursor = node;
        entry.el.replaceWith(node);
      }
      entry = { key, el: node };
      app.rendered.set(message.id, entry);
    }
    if (entry.el === cursor) cursor = cursor.nextElementSibling;
    else list.insertBefore(entry.el, cursor);
    seen.add(message.id);
    prev = message;
  }
  for (const [id, entry] of app.rendered) {
    if (!seen.has(id)) {
      entry.el.remove();
      app.rendered.delete(id);
    }
  }
  if (app.stick) scrollToBottom();
}

function clearMessages() {
  $("#messages").replaceChildren();
  app.rendered.clear();
}

// ------------------------------------------------------------------ status, banners

function setBanner(text) {
  const banner = $("#banner");
  banner.hidden = !text;
  banner.textContent = text || "";
}

function showProblems(problems) {
  const box = $("#problems");
  box.hidden = !problems.length;
  if (!problems.length) return;
  box.replaceChildren(el("strong", null, "Discord would refuse or flag what the bot sent:"));
  const ul = el("ul");
  for (const p of problems) ul.append(el("li", null, p));
  box.append(ul);
}

let toastTimer = null;
function toast(text) {
  const box = $("#toast");
  box.textContent = text;
  box.hidden = false;
  hidePopup();
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), 7000);
}

function updateReady() {
  const ready = app.online && app.state && app.state.commands.length > 0;
  document.body.dataset.ready = ready ? "true" : "false";
}

function applyUpdate(update) {
  if (update.member !== app.member || update.channel !== app.channel) return;
  app.online = update.online;
  if (update.bot_error) setBanner(`Parlour stopped: ${update.bot_error}. See the terminal for the traceback.`);
  else if (!update.online) setBanner("Parlour is connecting to the stand-in for Discord…");
  else setBanner(null);
  showProblems(update.problems || []);
  renderMessages(update.messages);
  renderMemberList();
  if (app.commandsVersion !== update.commands_version) {
    app.commandsVersion = update.commands_version;
    loadState();
  }
  updateReady();
}

// ------------------------------------------------------------------ server, channels, members

async function loadState() {
  try {
    app.state = await api("/api/state");
  } catch (error) {
    setBanner(`Could not load the playground: ${error.message}`);
    return;
  }
  const state = app.state;
  $("#guild-name").textContent = state.guild.name;
  const icon = $("#guild-icon");
  icon.textContent = state.guild.name.split(/\s+/).map((w) => w[0]).join("").slice(0, 2).toUpperCase();
  icon.title = state.guild.name;
  if (!state.members.some((m) => m.name === app.member)) app.member = state.members[0].name;
  if (!state.channels.some((c) => c.name === app.channel)) app.channel = state.channels[0].name;
  const picker = $("#member");
  picker.replaceChildren(...state.members.map((m) => new Option(m.name, m.name)));
  picker.value = app.member;
  renderChannels();
  renderMemberList();
  renderMe();
  renderLanguages();
  app.online = app.online || state.online;
  updateReady();
}

function renderChannels() {
  const list = $("#channels");
  list.replaceChildren();
  for (const channel of app.state.channels) {
    const item = el("li", channel.name === app.channel ? "active" : "");
    item.append(el("span", "hash", "#"), el("span", null, channel.name));
    item.addEventListener("click", () => setChannel(channel.name));
    list.append(item);
  }
  $("#channel-name").textContent = app.channel;
  $("#welcome-channel").textContent = "#" + app.channel;
  $("#command-input").placeholder = `Message #${app.channel} — type / for commands`;
}

function renderMemberList() {
  if (!app.state) return;
  const bots = $("#bot-list");
  const bot = el("li", app.online ? "" : "offline");
  const who = el("div", "who");
  who.append(el("span", "bot-name", app.state.bot.name), el("span", "sub", app.online ? "playing parlour games" : "offline"));
  bot.append(avatar(app.state.bot), who);
  bots.replaceChildren(bot);
  $("#members-title").textContent = `Members — ${app.state.members.length}`;
  const list = $("#member-list");
  list.replaceChildren();
  for (const member of app.state.members) {
    const item = el("li", member.name === app.member ? "me" : "");
    item.title = `Act as ${member.name}`;
    const names = el("div", "who");
    const name = el("span", null, member.name);
    if (member.owner) name.append(" ", el("span", "crown", "👑"));
    const rank = [member.owner ? "owner, admin" : null, ...member.roles].filter(Boolean).join(", ");
    const sub = member.name === app.member ? `you${rank ? ` (${rank})` : ""}` : rank || "play as them";
    names.append(name, el("span", "sub", sub));
    item.append(avatar(member), names);
    item.addEventListener("click", () => setMember(member.name));
    list.append(item);
  }
}

function renderMe() {
  const self = me();
  if (!self) return;
  $("#me-avatar").replaceWith(Object.assign(avatar(self), { id: "me-avatar" }));
  $("#me-name").textContent = self.name;
  $("#me-chip").textContent = self.name;
  $("#member").value = self.name;
}

function remember() {
  const url = new URL(location.href);
  url.searchParams.set("member", app.member);
  url.searchParams.set("channel", app.channel);
  history.replaceState(null, "", url);
  localStorage.setItem("parlour.member", app.member);
}

function setMember(name) {
  openDrawer(null);
  if (name === app.member) return;
  app.member = name;
  remember();
  renderMe();
  renderLanguages();
  renderMemberList();
  hidePopup();
  watch();
}

function setChannel(name) {
  openDrawer(null);
  if (name === app.channel) return;
  app.channel = name;
  remember();
  clearMessages();
  renderChannels();
  watch();
}

$("#member").addEventListener("change", (event) => setMember(event.target.value));

// ------------------------------------------------------------------ languages

function renderLanguages() {
  const state = app.state;
  if (!state || !state.languages) return;
  for (const id of ["#member-language", "#guild-language"]) {
    $(id).replaceChildren(...state.languages.map((l) => new Option(l.name, l.locale)));
  }
  $("#guild-language").value = state.guild.locale;
  const self = state.members.find((m) => m.name === app.member);
  if (self) $("#member-language").value = self.locale;
}

async function setLanguage(member, locale) {
  try {
    app.state = await api("/api/language", member ? { member, locale } : { locale });
    renderLanguages();
  } catch (error) {
    toast(error.message);
  }
}

$("#member-language").addEventListener("change", (event) => setLanguage(app.member, event.target.value));
$("#guild-language").addEventListener("change", (event) => setLanguage(null, event.target.value));

// ------------------------------------------------------------------ drawers (narrow windows)

function openDrawer(which) {
  for (const name of ["channels", "members"]) {
    const open = name === which && !document.body.classList.contains(`show-${name}`);
    document.body.classList.toggle(`show-${name}`, open);
    $(`#open-${name}`).setAttribute("aria-expanded", String(open));
  }
  $("#scrim").hidden = !document.body.className.includes("show-");
}

$("#open-channels").addEventListener("click", () => openDrawer("channels"));
$("#open-members").addEventListener("click", () => openDrawer("members"));
$("#scrim").addEventListener("click", () => openDrawer(null));
document.addEventListener("keydown", (event) => event.key === "Escape" && openDrawer(null));

// ------------------------------------------------------------------ live updates

let retry = 500;
function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/ws`);
  app.ws = ws;
  ws.addEventListener("open", () => {
    retry = 500;
    watch();
  });
  ws.addEventListener("message", (event) => {
    const update = JSON.parse(event.data);
    if (update.type === "update") applyUpdate(update);
    else if (update.type === "error") setBanner(update.error);
  });
  ws.addEventListener("close", () => {
    app.online = false;
    updateReady();
    setBanner("Lost the connection to the playground. Is python -m bot --playground still running? Reconnecting…");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  });
}

function watch() {
  if (app.ws && app.ws.readyState === WebSocket.OPEN) {
    app.ws.send(JSON.stringify({ member: app.member, channel: app.channel }));
  }
}

// ------------------------------------------------------------------ the command box

const input = $("#command-input");
const fields = $("#option-fields");
const popup = $("#popup");
const composer = { command: null, items: [], active: 0, focus: null, pick: null, seq: 0 };

function commands() {
  // Discord's client lists only the commands the member may use (default_member_permissions).
  if (!app.state) return [];
  const self = me();
  const hidden = new Set(self ? self.hidden_commands || [] : []);
  return app.state.commands.filter((c) => !hidden.has(c.path));
}

function matchCommand(text) {
  const body = text.replace(/^\//, "").replace(/\s+/g, " ").trimStart();
  let best = null;
  for (const command of commands()) {
    if ((body === command.path || body.startsWith(command.path + " ")) && (!best || command.path.length > best.path.length)) best = command;
  }
  return best;
}

function inlineOptions(text, command) {
  const rest = text.replace(/^\//, "").replace(/\s+/g, " ").trimStart().slice(command.path.length);
  const found = {};
  const re = /([\w-]+):\s*(.*?)(?=\s+[\w-]+:|$)/g;
  let m;
  while ((m = re.exec(rest))) found[m[1]] = m[2].trim();
  return found;
}

function hidePopup() {
  popup.hidden = true;
  composer.items = [];
  composer.pick = null;
}

function showPopup(title, hint, items, pick) {
  composer.items = items;
  composer.active = 0;
  composer.pick = pick;
  popup.replaceChildren();
  const head = el("h4");
  head.append(el("span", null, title));
  if (hint) head.append(el("span", "hint", hint));
  popup.append(head);
  if (!items.length) popup.append(el("div", "empty", hint ? "" : "Nothing matches."));
  items.forEach((item, index) => {
    const row = el("div", "item" + (index === 0 ? " active" : ""));
    if (item.user) row.append(avatar(item.user));
    const texts = el("div", "texts");
    const title = el("div", "title", item.title);
    if (item.extra) title.append(el("span", "opt", item.extra));
    texts.append(title);
    if (item.description) texts.append(el("div", "desc", item.description));
    row.append(texts);
    if (item.app) row.append(el("span", "app-name", item.app));
    row.addEventListener("mousedown", (event) => {
      event.preventDefault();
      pick(item);
    });
    popup.append(row);
  });
  if (!items.length && !hint) return hidePopup();
  $("#toast").hidden = true;
  popup.hidden = false;
}

function moveActive(step) {
  if (!composer.items.length) return;
  composer.active = (composer.active + step + composer.items.length) % composer.items.length;
  popup.querySelectorAll(".item").forEach((row, i) => row.classList.toggle("active", i === composer.active));
  popup.querySelectorAll(".item")[composer.active].scrollIntoView({ block: "nearest" });
}

function suggestCommands() {
  const text = input.value;
  if (!text.startsWith("/")) return hidePopup();
  const query = text.slice(1).trim().toLowerCase().replace(/\s+/g, " ");
  const list = commands()
    .filter((c) => c.path.startsWith(query) || (query && c.path.includes(query)))
    .sort((a, b) => Number(!a.path.startsWith(query)) - Number(!b.path.startsWith(query)) || a.path.localeCompare(b.path));
  const items = list.map((c) => ({
    title: "/" + c.path,
    extra: c.options.map((o) => o.name).join(" "),
    description: c.description,
    app: app.state.bot.name,
    command: c,
  }));
  const title = query ? `Commands matching /${query}` : app.state ? app.state.bot.name : "Commands";
  showPopup(title, null, items, (item) => chooseCommand(item.command));
}

function chooseCommand(command) {
  input.value = "/" + command.path + " ";
  setCommand(command);
  hidePopup();
  const first = fields.querySelector(".pill.required input");
  (first || input).focus();
}

const measure = document.createElement("canvas").getContext("2d");

function fitInput() {
  // With a command chosen, the input hugs its text so the option pills follow it, as in Discord.
  if (!composer.command) {
    input.style.flex = "";
    input.style.width = "";
    return;
  }
  measure.font = getComputedStyle(input).font;
  input.style.flex = "0 0 auto";
  input.style.width = Math.ceil(measure.measureText(input.value + "  ").width) + "px";
}

function setCommand(command) {
  if (composer.command === command) return fitInput();
  composer.command = command;
  fields.replaceChildren();
  fitInput();
  if (!command) return;
  for (const option of command.options) {
    const pill = el("label", "pill " + (option.required ? "required" : "optional"));
    pill.title = `${option.description} (${OPTION_TYPES[option.type] || "value"})`;
    const field = el("input");
    field.dataset.option = option.name;
    field.setAttribute("aria-label", option.name);
    if (option.type === 4) field.inputMode = "numeric";
    if (option.type === 10) field.inputMode = "decimal";
    if (option.max_length) field.maxLength = option.max_length;
    field.spellcheck = false;
    field.addEventListener("focus", () => {
      pill.classList.add("focused");
      composer.focus = option;
      suggestValues(option, field);
    });
    field.addEventListener("blur", () => {
      pill.classList.remove("focused");
      setTimeout(() => composer.focus === option && document.activeElement !== field && hidePopup(), 0);
    });
    field.addEventListener("input", () => {
      field.style.width = Math.max(9, field.value.length + 2) + "ch";
      suggestValues(option, field);
    });
    field.addEventListener("keydown", (event) => keys(event, field));
    pill.append(el("span", "pill-name", option.name), field);
    fields.append(pill);
  }
}

function optionValues() {
  const values = composer.command ? inlineOptions(input.value, composer.command) : {};
  for (const field of fields.querySelectorAll("input")) {
    if (field.value.trim()) values[field.dataset.option] = field.value.trim();
  }
  return values;
}

async function suggestValues(option, field) {
  const typed = field.value.trim().toLowerCase();
  const command = composer.command;
  // The composer may be sent or changed while an answer is awaited: then it is dropped.
  const current = () => command && composer.command === command && composer.focus === option && field.isConnected;
  const pick = (item) => {
    field.value = item.value;
    field.style.width = Math.max(9, field.value.length + 2) + "ch";
    hidePopup();
  };
  const title = `Option: ${option.name}`;
  let items = [];
  if (option.choices) {
    items = option.choices.map((c) => ({ title: c.name, value: String(c.value) }));
  } else if (option.autocomplete) {
    const seq = ++composer.seq;
    await new Promise((resolve) => setTimeout(resolve, 120));
    if (seq !== composer.seq || !current()) return;
    try {
      const answer = await api("/api/autocomplete", {
        member: app.member,
        channel: app.channel,
        command: command.path,
        options: { ...optionValues(), [option.name]: field.value },
        focused: option.name,
      });
      if (seq !== composer.seq || !current()) return;
      items = answer.choices.map((c) => ({ title: c.name, value: String(c.value) }));
      return showPopup(title, option.description, items, pick);
    } catch (error) {
      if (seq !== composer.seq || !current()) return;
      return showPopup(title, error.message, [], pick);
    }
  } else if (option.type === 6 || option.type === 9) {
    items = app.state.members.map((m) => ({ title: m.name, value: m.name, user: m }));
  } else if (option.type === 7) {
    items = app.state.channels.map((c) => ({ title: "#" + c.name, value: c.name }));
  } else if (option.type === 5) {
    items = [{ title: "True", value: "true" }, { title: "False", value: "false" }];
  }
  items = items.filter((item) => !typed || item.title.toLowerCase().includes(typed) || item.value.toLowerCase().includes(typed));
  showPopup(title, option.description, items, pick);
}

function keys(event, field) {
  const open = !popup.hidden && composer.items.length > 0;
  if (event.key === "ArrowDown" && open) {
    event.preventDefault();
    moveActive(1);
  } else if (event.key === "ArrowUp" && open) {
    event.preventDefault();
    moveActive(-1);
  } else if (event.key === "Escape") {
    hidePopup();
  } else if (event.key === "Tab" && open) {
    event.preventDefault();
    composer.pick(composer.items[composer.active]);
  } else if (event.key === "Enter") {
    event.preventDefault();
    enter(field, open ? composer.items[composer.active] : null);
  } else if (event.key === "Backspace" && field !== input && !field.value) {
    const all = [...fields.querySelectorAll("input")];
    const index = all.indexOf(field);
    event.preventDefault();
    (index > 0 ? all[index - 1] : input).focus();
  }
}

function fixedValues(option) {
  // The values an option with a fixed list accepts (lower case): its choices, members, channels.
  if (option.choices) return option.choices.flatMap((c) => [String(c.value), c.name].map((v) => v.toLowerCase()));
  if (option.type === 5) return ["true", "false", "yes", "no", "1", "0", "on", "off"];
  if (option.type === 7) return app.state.channels.flatMap((c) => [c.name, "#" + c.name]);
  return app.state.members.map((m) => m.name.toLowerCase());
}

function enter(field, item) {
  // As in Discord: Enter completes a command name or an empty option from the highlighted
  // suggestion, picks the highlighted entry of a fixed list (the typed text only filters it),
  // and otherwise sends what was typed, as typed: it never swaps typed text for another value.
  if (field === input) {
    if (item && !matchCommand(input.value)) composer.pick(item);
    else submit();
    return;
  }
  const typed = field.value.trim();
  const option = composer.command && composer.command.options.find((o) => o.name === field.dataset.option);
  const fixed = option && (option.choices || [5, 6, 7, 9].includes(option.type));
  if (item && (!typed || (fixed && item.value !== typed))) return composer.pick(item);
  if (fixed && typed && !fixedValues(option).includes(typed.toLowerCase())) {
    toast(`Choose one of the values offered for ${option.name}.`);
    return;
  }
  submit();
}

input.addEventListener("input", () => {
  const command = matchCommand(input.value);
  setCommand(command);
  if (command) hidePopup();
  else suggestCommands();
});
input.addEventListener("focus", () => {
  composer.focus = null;
  if (!composer.command) suggestCommands();
});
input.addEventListener("blur", () => setTimeout(() => composer.focus === null && document.activeElement !== input && hidePopup(), 0));
input.addEventListener("keydown", (event) => {
  composer.focus = null;
  keys(event, input);
});
$("#composer").addEventListener("submit", (event) => {
  event.preventDefault();
  submit();
});

function convert(command, values) {
  const out = {};
  for (const [name, value] of Object.entries(values)) {
    const option = command.options.find((o) => o.name === name);
    if (option && option.type === 5) out[name] = /^(true|yes|1|on)$/i.test(value);
    else out[name] = value;
  }
  return out;
}

function resetComposer() {
  composer.seq++; // an autocomplete answer still on its way is for the old text
  input.value = "";
  setCommand(null);
  hidePopup();
}

async function submit() {
  const text = input.value.trim();
  if (!text) return;
  if (!text.startsWith("/")) {
    toast(`${app.state ? app.state.bot.name : "The bot"} answers slash commands: type / to see them.`);
    return;
  }
  const command = matchCommand(text);
  if (!command) {
    toast(`${text.split(/\s+/)[0]}… is not one of the bot's commands. Type / to see them.`);
    return;
  }
  const values = optionValues();
  const missing = command.options.filter((o) => o.required && !values[o.name]);
  if (missing.length) {
    toast(`/${command.path} needs ${missing.map((o) => o.name).join(", ")}.`);
    const field = fields.querySelector(`input[data-option="${missing[0].name}"]`);
    if (field) field.focus();
    return;
  }
  const saved = { text: input.value, values: [...fields.querySelectorAll("input")].map((f) => f.value) };
  resetComposer();
  app.stick = true;
  try {
    const answer = await api("/api/command", {
      member: app.member,
      channel: app.channel,
      command: command.path,
      options: convert(command, values),
    });
    if (answer.modal) openModal(answer);
    scrollToBottom();
  } catch (error) {
    if (!input.value) {
      input.value = saved.text;
      setCommand(matchCommand(saved.text));
      [...fields.querySelectorAll("input")].forEach((f, i) => (f.value = saved.values[i] || ""));
    }
    toast(error.message);
  }
}

// ------------------------------------------------------------------ modals and the image viewer

const backdrop = $("#modal");

function closeModal() {
  backdrop.hidden = true;
  backdrop.replaceChildren();
}

backdrop.addEventListener("click", (event) => event.target === backdrop && closeModal());
document.addEventListener("keydown", (event) => event.key === "Escape" && !backdrop.hidden && closeModal());

function openViewer(url, alt) {
  const box = el("div", "viewer");
  box.append(Object.assign(el("img"), { src: url, alt: alt || "" }));
  if (alt) box.append(el("div", "alt", `Alt text: ${alt}`));
  box.addEventListener("click", closeModal);
  backdrop.replaceChildren(box);
  backdrop.hidden = false;
}

function openModal(answer) {
  const spec = answer.modal;
  const form = el("form", "modal");
  form.append(el("h2", null, spec.title));
  const body = el("div", "fields");
  const inputs = [];
  for (const row of spec.components || []) {
    const children = [...(row.components || []), ...(row.component ? [row.component] : [])];
    for (const c of children.filter((x) => x.type === 4)) {
      const wrap = el("div");
      const label = el("label", null, row.label || c.label || c.custom_id);
      const field = el(c.style === 2 ? "textarea" : "input");
      field.value = c.value || "";
      field.placeholder = c.placeholder || "";
      field.required = c.required !== false;
      if (c.max_length) field.maxLength = c.max_length;
      if (c.min_length) field.minLength = c.min_length;
      field.dataset.customId = c.custom_id;
      label.htmlFor = field.id = "modal-" + c.custom_id.replace(/\W/g, "_");
      wrap.append(label, field);
      body.append(wrap);
      inputs.push(field);
    }
  }
  const error = el("div", "action-error");
  body.append(error);
  const footer = el("footer");
  const cancel = el("button", "link", "Cancel");
  cancel.type = "button";
  cancel.addEventListener("click", closeModal);
  const send = el("button", "btn btn-1", "Submit");
  send.type = "submit";
  footer.append(cancel, send);
  form.append(body, footer);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    send.classList.add("pending");
    const values = Object.fromEntries(inputs.map((f) => [f.dataset.customId, f.value]));
    try {
      const result = await api("/api/modal", { member: app.member, modal_id: answer.modal_id, values });
      closeModal();
      if (result.modal) openModal(result);
    } catch (e) {
      error.textContent = e.message;
    } finally {
      send.classList.remove("pending");
    }
  });
  backdrop.replaceChildren(form);
  backdrop.hidden = false;
  if (inputs.length) inputs[0].focus();
}

// ------------------------------------------------------------------ start

remember();
loadState().then(connect);
document.addEventListener("click", (event) => {
  const spoiler = event.target.closest && event.target.closest(".spoiler");
  if (spoiler) spoiler.classList.add("shown");
});
$(".composer-box").addEventListener("click", (event) => {
  if (event.target.classList.contains("composer-box") || event.target.classList.contains("command-line")) input.focus();
});
