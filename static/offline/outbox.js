/* Sổ Tôm outbox: ván recorded on this device and not yet accepted by the server, kept in
 * IndexedDB (they survive a reload, a closed tab, a flat battery), plus each sitting's offline
 * pack (rules and history, for the provisional preview).
 *
 * An outbox item: {key, sitting, seq, body, summary, points, streakName, status, message,
 * server, createdAt}. `key` is the ván's idempotency key: the same on every retry, so the server
 * records it once whatever happens to the answers. `status` is "waiting" (chờ gửi), "conflict"
 * (the number was taken by someone else: a human decides) or "error" (refused: a human decides).
 *
 * window.SoTomOutbox = {add, get, list, all, put, remove, savePack, getPack, packs}
 */
(function () {
  "use strict";

  const DB_NAME = "sotom-offline";
  const DB_VERSION = 1;
  let opening = null;

  function open() {
    if (opening) return opening;
    opening = new Promise((resolve, reject) => {
      const request = indexedDB.open(DB_NAME, DB_VERSION);
      request.onupgradeneeded = () => {
        const db = request.result;
        if (!db.objectStoreNames.contains("outbox")) {
          const store = db.createObjectStore("outbox", { keyPath: "key" });
          store.createIndex("sitting", "sitting");
        }
        if (!db.objectStoreNames.contains("packs")) {
          db.createObjectStore("packs", { keyPath: "sitting" });
        }
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => { opening = null; reject(request.error); };
    });
    return opening;
  }

  function done(request) {
    return new Promise((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }

  async function store(name, mode) {
    const db = await open();
    return db.transaction(name, mode).objectStore(name);
  }

  function bySeq(a, b) {
    return a.seq - b.seq || a.createdAt - b.createdAt;
  }

  const api = {
    /* Keep a new ván; resolves with the item as stored. */
    async add(item) {
      const full = { status: "waiting", message: "", server: null, createdAt: Date.now(), ...item };
      await done((await store("outbox", "readwrite")).add(full));
      return full;
    },
    async get(key) {
      return (await done((await store("outbox", "readonly")).get(key))) || null;
    },
    async put(item) {
      await done((await store("outbox", "readwrite")).put(item));
      return item;
    },
    async remove(key) {
      await done((await store("outbox", "readwrite")).delete(key));
    },
    /* The items of one sitting, by ván number. */
    async list(sitting) {
      const index = (await store("outbox", "readonly")).index("sitting");
      return (await done(index.getAll(Number(sitting)))).sort(bySeq);
    },
    /* Every item of every sitting, by sitting then number. */
    async all() {
      const items = await done((await store("outbox", "readonly")).getAll());
      return items.sort((a, b) => a.sitting - b.sitting || bySeq(a, b));
    },
    async savePack(pack) {
      await done((await store("packs", "readwrite")).put({ ...pack, savedAt: Date.now() }));
    },
    async getPack(sitting) {
      return (await done((await store("packs", "readonly")).get(Number(sitting)))) || null;
    },
    async packs() {
      return done((await store("packs", "readonly")).getAll());
    },
  };

  window.SoTomOutbox = api;
})();
