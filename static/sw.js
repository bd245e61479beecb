// Barrierscope's service worker: after the first load the app works offline (a classroom on flaky
// Wi-Fi). On install it caches the page and every asset the page names (the wasm, the JS, the
// CSS, the icon, the manifest). The page itself is fetched network-first, so a new build is seen
// as soon as the network is back; the assets have content hashes in their names, so they are
// served cache-first. Only same-origin GET requests are touched.
//
// The rooms' parts (the page's <meta name="barrierscope-parts">) are cached at install too. The
// page registers this worker only once it is interactive and the browser is idle, so the first
// screen never waits for them, and after that every room opens offline. Entries of an older build
// are dropped once the new one is cached, so old and new parts never mix.
//
// The book (docs/) is fetched network-first, so it is never stale online; its chapters for
// learners and teachers (the page's <meta name="barrierscope-book">: "Using the page", the
// classroom, in English and Chinese) are cached at install, so the page's ? Help link works
// offline, and every other chapter is cached the first time it is read.
const CACHE = 'barrierscope-v1';

async function precache() {
  const cache = await caches.open(CACHE);
  const page = await fetch('./', { cache: 'reload' });
  if (!page.ok) return;
  const html = await page.clone().text();
  const assets = new Set();
  for (const m of html.matchAll(/(?:href|src)="(\.\/[^"#?]+)"/g)) assets.add(m[1]);
  const parts = html.match(/<meta name="barrierscope-parts" content="([^"]*)"/);
  for (const p of parts ? parts[1].split(' ').filter(Boolean) : []) assets.add(p);
  const book = html.match(/<meta name="barrierscope-book" content="([^"]*)"/);
  for (const p of book ? book[1].split(' ').filter(Boolean) : []) assets.add(p);
  await cache.addAll([...assets]);
  await cache.put('./', page);
  const keep = new Set([...assets].map((a) => new URL(a, self.location.href).href));
  keep.add(new URL('./', self.location.href).href);
  for (const req of await cache.keys()) if (!keep.has(req.url)) await cache.delete(req);
}

self.addEventListener('install', (e) => {
  e.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (e) => {
  e.waitUntil((async () => {
    for (const k of await caches.keys()) if (k !== CACHE) await caches.delete(k);
    await self.clients.claim();
  })());
});

// Fresh from the network when it answers, kept under `key`; the kept copy when it does not.
async function networkFirst(req, key) {
  try {
    const fresh = await fetch(req);
    if (fresh.ok) (await caches.open(CACHE)).put(key, fresh.clone());
    return fresh;
  } catch (err) {
    const cached = await caches.match(key, { ignoreSearch: true });
    if (cached) return cached;
    throw err;
  }
}

self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  if (new URL(req.url).pathname.includes('/docs/')) {
    e.respondWith(networkFirst(req, req));
    return;
  }
  if (req.mode === 'navigate') {
    e.respondWith(networkFirst(req, './'));
    return;
  }
  e.respondWith((async () => {
    const cached = await caches.match(req, { ignoreSearch: true });
    if (cached) return cached;
    const fresh = await fetch(req);
    if (fresh.ok) (await caches.open(CACHE)).put(req, fresh.clone());
    return fresh;
  })());
});
