// @ts-check
// The service worker (served at /sw.js, scope "/"; docs/notices.md, rule N4): shows a Web Push the server sent
// (its JSON: title, body, url, tag; never a card), and opens the seat it names when the notification is clicked
// (a tab of the site already open is focused and taken there).
/// <reference lib="webworker" />
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

worker.addEventListener("push", (event) => {
  /** @type {{title?: string, body?: string, url?: string, tag?: string}} */
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = {}; }
  const url = typeof data.url === "string" && data.url.startsWith("/") ? data.url : "/me";
  event.waitUntil(worker.registration.showNotification(data.title || "dreizehn",
    { body: data.body || "", tag: data.tag, data: { url }, icon: "/static/img/icon.svg" }));
});

worker.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data && event.notification.data.url || "/me", worker.location.origin).href;
  event.waitUntil((async () => {
    const open = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of open) {
      if (new URL(client.url).origin === worker.location.origin && "focus" in client) {
        await client.focus();
        if ("navigate" in client) await /** @type {WindowClient} */ (client).navigate(url);
        return;
      }
    }
    await worker.clients.openWindow(url);
  })());
});
