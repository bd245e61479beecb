// End-to-end test of the built page (dist/ from `trunk build --release`), served on 127.0.0.1 and
// driven in Debian's headless Chromium through a user's clicks and keys. Every control is checked
// to do what its label says; screenshots go to e2e/screenshots/. Exit code 1 on any failure.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { serve, launch, tools } from './lib.mjs';

const dist = new URL('../dist', import.meta.url).pathname;
const shots = new URL('./screenshots/', import.meta.url).pathname;
await mkdir(shots, { recursive: true });

let passed = 0;
let failed = 0;
const problems = [];
// E2E_ONLY=regex runs only the matching checks (while developing; the suite runs them all).
const only = process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY) : null;
async function check(name, fn) {
  if (only && !only.test(name)) return;
  try {
    await fn();
    passed++;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed++;
    problems.push(name);
    console.log(`FAIL ${name}\n     ${String(e && e.message || e).split('\n').join('\n     ')}`);
  }
}
function expect(cond, msg) { if (!cond) throw new Error(msg); }
// The headless runner, for the checks that compare the page with it (built by `cargo test`).
function runner() {
  const target = process.env.CARGO_TARGET_DIR || new URL('../target', import.meta.url).pathname;
  const bin = `${target}/debug/barrierscope`;
  if (!existsSync(bin)) execFileSync('cargo', ['build', '--quiet', '--bin', 'barrierscope'], { stdio: 'inherit' });
  return bin;
}

const srv = await serve(dist);
const browser = await launch();
const errors = [];

// Every context of the run is watched: a request that leaves 127.0.0.1, and any violation of the
// page's Content-Security-Policy (reported by the browser to the page, and in the console).
const offHost = [];
const cspViolations = [];
const newContext = browser.newContext.bind(browser);
// Parts of the page load when first shown: a lesson's words, the Checkpoints and External tabs.
// A check that picks a lesson or opens one of those tabs goes on once it is drawn, as a person
// waits for what they clicked.
function waitForParts(page) {
  const select = page.selectOption.bind(page);
  page.selectOption = async (sel, value, ...rest) => {
    const r = await select(sel, value, ...rest);
    if (sel === '#sel-lesson' && value !== 'none') await page.waitForSelector('#lesson', { timeout: 15000 });
    return r;
  };
  const click = page.click.bind(page);
  page.click = async (sel, ...rest) => {
    const r = await click(sel, ...rest);
    if (/^#tab-(checkpoints|external)$/.test(sel)) {
      await page.waitForFunction(() => !document.querySelector('.tab-body .piece-status'), null, { timeout: 15000 });
    }
    return r;
  };
  return page;
}
browser.newContext = async (options) => {
  const context = await newContext(options);
  const newPage = context.newPage.bind(context);
  context.newPage = async () => waitForParts(await newPage());
  context.on('request', (r) => {
    const u = new URL(r.url());
    if (!['data:', 'blob:'].includes(u.protocol) && u.hostname !== '127.0.0.1') offHost.push(r.url());
  });
  context.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text()); });
  await context.addInitScript(() => document.addEventListener('securitypolicyviolation',
    (e) => console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`)));
  return context;
};

async function open(viewport = { width: 1366, height: 768 }, options = {}) {
  const context = await browser.newContext({ viewport, ...options });
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(srv.url);
  await page.waitForSelector('#app[data-ready="true"]', { timeout: 15000 });
  return page;
}
const attr = (page, sel, name) => page.getAttribute(sel, name);
const step = async (page) => Number(await attr(page, '#app', 'data-step'));
const steps = async (page) => Number(await attr(page, '#app', 'data-steps'));
// Each record's state verdict: from the ledger's table, or (in a lesson and in presenter mode, issue
// 48) from the verdict's record chips.
const verdicts = (page) => page.evaluate(() => {
  const rows = [...document.querySelectorAll('#ledger tbody tr')];
  const chips = [...document.querySelectorAll('#verdict-records-state li[data-record], #verdict-records > ul > li[data-record]')];
  return Object.fromEntries((rows.length ? rows : chips).map((r) => [r.dataset.record, r.dataset.verdict]));
});
async function playToEnd(page) {
  await page.fill('#inp-speed', '7');
  await page.dispatchEvent('#inp-speed', 'input');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => document.querySelector('#btn-step').disabled && !document.querySelector('#app').classList.contains('playing'), null, { timeout: 20000 });
}

// The notice's text. Its sentences come with the words part (app/words_part.rs), which a page fetches
// shortly after it is ready: until then a notice shows "…". Wait for the words, then read.
async function noticeText(pg) {
  await pg.waitForFunction(() => !/^…/.test(document.querySelector('#notice span')?.textContent ?? ''), null, { timeout: 10000 });
  return pg.textContent('#notice');
}

let page;
await check('the app mounts on the built page', async () => {
  page = await open();
  expect((await page.title()).startsWith('Barrierscope'), 'title');
  expect(await page.$('#boot') === null, 'the loading notice is replaced');
});

await check('Read ▸ on the source reads a, b, c into the channel', async () => {
  for (let i = 0; i < 3; i++) await page.click('#read-Source');
  expect(await page.textContent('[data-task="Source"]').then((t) => t.includes('offset 3 / 8')), 'offset 3');
  expect(await attr(page, '[data-channel="Source->Map"]', 'data-queued') === '3', 'three queued');
  const labels = await page.$$eval('[data-channel="Source->Map"] .token', (ts) => ts.map((t) => t.dataset.record).join(''));
  expect(labels === 'abc', `tokens ${labels}`);
});

await check('T fires every timer; the cut flags a, b, c in transit', async () => {
  await page.keyboard.press('t');
  expect(await page.$$eval('.snap-mark', (m) => m.length) === 3, 'three save markers');
  const flag = await page.textContent('[data-flag="in-transit"]');
  expect(flag.includes('a b c'), flag);
  expect((await page.textContent('#storage')).includes('Source: offset 3'), 'storage lists the source offset');
  await page.screenshot({ path: shots + '01-timers-abc-in-transit-1366.png' });
});

await check('✖ Crash cluster crashes every task and disables itself', async () => {
  await page.click('#btn-crash');
  const statuses = await page.$$eval('[data-task]', (ts) => ts.map((t) => t.dataset.status));
  expect(statuses.every((s) => s === 'crashed'), statuses.join());
  expect(await page.isDisabled('#btn-crash'), 'crash disabled while down');
  expect(!(await page.isDisabled('#btn-restore')), 'restore enabled');
  expect(await page.isVisible('#down-banner'), 'banner');
});

await check('R restores each task from its own save; play runs to the end: a, b, c lost', async () => {
  await page.keyboard.press('r');
  expect((await page.textContent('#narration')).includes('Restored each task from its own latest save.'), 'narration');
  await playToEnd(page);
  const v = await verdicts(page);
  expect(v.a === 'lost' && v.b === 'lost' && v.c === 'lost', JSON.stringify(v));
  expect(['d', 'e', 'f', 'g', 'h'].every((r) => v[r] === 'exactly-once'), JSON.stringify(v));
  expect((await page.textContent('#tally-state')).includes('✗ lost'), 'headline says lost with a symbol');
  await page.screenshot({ path: shots + '02-timers-abc-lost-1366.png' });
});

await check('← steps back, the timeline scrubs, → steps forward', async () => {
  const end = await step(page);
  await page.keyboard.press('ArrowLeft');
  expect(await step(page) === end - 1, 'back one');
  await page.fill('#inp-timeline', '3');
  await page.dispatchEvent('#inp-timeline', 'input');
  expect(await step(page) === 3, 'scrubbed to 3');
  expect(await attr(page, '[data-channel="Source->Map"]', 'data-queued') === '3', 'state of step 3');
  await page.keyboard.press('ArrowRight');
  expect(await step(page) === 4, 'forward');
  expect(await steps(page) === end, 'history kept while scrubbing');
  await page.click('#btn-back');
  expect(await step(page) === 3, 'Back button');
  await page.click('#btn-step');
  expect(await step(page) === 4, 'Step button');
});

await check('acting at an earlier step forks the run', async () => {
  await page.click('#btn-crash');
  expect(await steps(page) === 5, `history now ends at 5, got ${await steps(page)}`);
});

// --- time travel and notices (issue 18) ---
/** Line, per-task timers: Read ▸ three times, all timers, crash: steps 1–5. */
async function fiveSteps(pg) {
  for (let i = 0; i < 3; i++) await pg.click('#read-Source');
  await pg.keyboard.press('t');
  await pg.keyboard.press('x');
}
/** What the canvas and the verdict show: every task's status, every channel's queue, every record's verdict. */
const frame = (pg) => pg.evaluate(() => JSON.stringify({
  tasks: [...document.querySelectorAll('[data-task]')].map((t) => [t.dataset.task, t.dataset.status, t.textContent]),
  channels: [...document.querySelectorAll('[data-channel]')].map((c) => [c.dataset.channel, c.dataset.queued]),
  ledger: [...document.querySelectorAll('#ledger tbody tr')].map((r) => [r.dataset.record, r.dataset.verdict]),
}));

await check('before acting at an earlier step, the timeline marks the fork and names the steps that would go', async () => {
  const pg = await open();
  await fiveSteps(pg);
  expect(!(await pg.$('#fork-note')) && !(await pg.$('#fork-marker')), 'at the end nothing would be dropped');
  await pg.keyboard.press('ArrowLeft');
  await pg.keyboard.press('ArrowLeft');
  expect(await step(pg) === 3 && (await steps(pg)) === 5, 'at step 3 of 5');
  const note = await pg.textContent('#fork-note');
  expect(note.includes('Acting at this step drops steps 4–5 (2 steps).') && note.includes('Ctrl+Z brings them back'), note);
  expect(await attr(pg, '#fork-note', 'data-from') === '4' && (await attr(pg, '#fork-note', 'data-to')) === '5', 'the steps, as data');
  expect(await attr(pg, '#inp-timeline', 'aria-describedby') === 'fork-note', 'the timeline slider is described by the note');
  // The marker starts where the thumb is (3 of 5) and runs to the end of the track.
  const track = await pg.$eval('#inp-timeline', (e) => { const r = e.getBoundingClientRect(); return { x: r.x, w: r.width }; });
  const mark = await pg.$eval('#fork-marker', (e) => { const r = e.getBoundingClientRect(); return { x: r.x, right: r.right }; });
  const thumb = track.x + 8 + (track.w - 16) * 3 / 5;
  expect(Math.abs(mark.x - thumb) <= 4, `marker at ${mark.x}, thumb at ${thumb}`);
  expect(mark.right > track.x + track.w - 8, 'the marker runs to the end');
  expect(await pg.isVisible('#fork-note'), 'the note is visible');
  await pg.screenshot({ path: shots + '30-fork-marker-and-note-1366.png' });
  await pg.click('#btn-lang');
  expect((await pg.textContent('#fork-note')).includes('在这一步操作会丢弃第 4–5 步（共 2 步）'), await pg.textContent('#fork-note'));
  await pg.click('#btn-lang');
  await pg.keyboard.press('ArrowRight');
  expect((await pg.textContent('#fork-note')).includes('drops step 5.'), 'one step: "step 5"');
  await pg.keyboard.press('ArrowRight');
  expect(!(await pg.$('#fork-note')) && !(await pg.$('#fork-marker')), 'back at the end: no note, no marker');
  await pg.context().close();
});

await check('acting in the past says what it dropped; Undo, Ctrl+Z and Ctrl+Y bring back exactly the same steps', async () => {
  const pg = await open();
  await fiveSteps(pg);
  const atEnd = await frame(pg);
  await pg.keyboard.press('ArrowLeft');
  await pg.keyboard.press('ArrowLeft');
  const at3 = await frame(pg);
  await pg.click('#btn-crash');
  expect(await steps(pg) === 4 && (await step(pg)) === 4, 'forked: steps 1–3 and the new 4');
  const notice = await pg.textContent('#notice');
  expect(notice.includes('Forked the run at step 3: steps 4–5 (2 steps) dropped. Undo (Ctrl+Z) brings them back.'), notice);
  const forked = await frame(pg);
  await pg.click('#btn-undo-fork');
  expect(await steps(pg) === 5 && (await step(pg)) === 3, `undone: ${await step(pg)} / ${await steps(pg)}`);
  expect(await frame(pg) === at3, 'the same frame as at step 3 before the fork');
  expect((await pg.textContent('#notice')).includes('Brought back steps 4–5 (2 steps); you are at step 3.'), await pg.textContent('#notice'));
  await pg.click('#btn-redo-fork');
  expect(await steps(pg) === 4 && (await step(pg)) === 4 && (await frame(pg)) === forked, 'redone: the fork again');
  await pg.keyboard.press('Control+z');
  expect(await steps(pg) === 5 && (await step(pg)) === 3, 'Ctrl+Z undoes');
  await pg.keyboard.press('Control+y');
  expect(await steps(pg) === 4, 'Ctrl+Y redoes');
  await pg.keyboard.press('Control+Shift+Z');
  expect(await steps(pg) === 4 && (await step(pg)) === 4, 'nothing set aside to redo');
  await pg.keyboard.press('Control+z');
  await pg.keyboard.press('ArrowRight');
  await pg.keyboard.press('ArrowRight');
  expect(await step(pg) === 5 && (await frame(pg)) === atEnd, 'the steps brought back end as they did');
  await pg.keyboard.press('Control+z');
  expect((await pg.textContent('#notice')).includes('Nothing to undo'), await pg.textContent('#notice'));
  await pg.click('#btn-lang');
  await pg.click('#btn-back');
  await pg.click('#btn-crash');
  expect((await pg.textContent('#notice')).includes('已在第 4 步分叉：丢弃了第 5 步'), await pg.textContent('#notice'));
  await pg.context().close();
});

await check('Ctrl+Z follows the key rule: in a text field it is the field\'s; on the timeline, a button or the page it undoes the fork', async () => {
  const pg = await open();
  await fiveSteps(pg);
  await pg.fill('#inp-timeline', '2');
  await pg.dispatchEvent('#inp-timeline', 'input');
  // The page answers each event once it has drawn: wait for that, not for the clock.
  await pg.waitForFunction(() => document.querySelector('#app').dataset.step === '2', null, { timeout: 5000 });
  await pg.keyboard.press('t');
  await pg.waitForFunction(() => document.querySelector('#app').dataset.steps !== '5', null, { timeout: 5000 }).catch(() => {});
  expect(await steps(pg) === 3, `forked at step 2: ${await steps(pg)} steps, at ${await step(pg)}`);
  await pg.click('.more-settings summary');
  await pg.focus('#inp-seed');
  await pg.keyboard.press('Control+z');
  expect(await steps(pg) === 3, 'Ctrl+Z in the seed field does not undo the fork');
  await pg.click('#btn-share');
  await pg.focus('#share-url');
  await pg.keyboard.press('Control+z');
  expect(await steps(pg) === 3, 'nor in the share link');
  await pg.focus('#inp-timeline');
  await pg.keyboard.press('Control+z');
  expect(await steps(pg) === 5 && (await step(pg)) === 2, 'on the timeline slider it does');
  await pg.context().close();
});

await check('a Checkpoints row keeps its completed figures and the later checkpoints, wherever the timeline is', async () => {
  const pg = await open();
  await pg.selectOption('#sel-strategy', 'aligned');
  const keys = ['ArrowRight', 'ArrowRight', 'ArrowRight', 'c', ...Array(10).fill('ArrowRight'), 'c', ...Array(4).fill('ArrowRight'), 'e'];
  for (const k of keys) await pg.keyboard.press(k);
  await pg.click('#tab-checkpoints');
  const rows = () => pg.$$eval('#checkpoints tr[data-checkpoint]', (rs) => rs.map((r) => [r.dataset.checkpoint, ...[...r.cells].slice(1).map((c) => c.textContent)]));
  const before = await rows();
  expect(before.length >= 2 && before.every((r) => r[1].includes('completed')), JSON.stringify(before));
  const first = before.find((r) => r[0] === '1');
  await pg.click('#checkpoints tr[data-checkpoint="1"] button');
  expect(await step(pg) === Number(first[3]), `at the trigger of checkpoint 1, step ${first[3]}; at ${await step(pg)}`);
  expect(await steps(pg) > (await step(pg)), 'an earlier step');
  expect(JSON.stringify(await rows()) === JSON.stringify(before), `the same rows and figures:\n${JSON.stringify(await rows())}\n${JSON.stringify(before)}`);
  expect(await attr(pg, '#checkpoints tr[data-checkpoint="1"]', 'class') === 'selected', 'the clicked row is highlighted');
  expect(await attr(pg, '#checkpoints tr[data-checkpoint="2"]', 'data-later') === 'true', 'a later checkpoint is marked later');
  expect((await pg.textContent('#checkpoints-as-of')).includes('as of its last step'), 'the table says what it shows');
  const acks = await pg.$$eval('#subtasks tbody tr', (rs) => rs.map((r) => r.cells[1].textContent));
  expect(acks.length === 3 && acks.every((a) => /^\d+$/.test(a)), `every subtask acknowledged: ${acks}`);
  await pg.screenshot({ path: shots + '31-checkpoints-row-clicked-1366.png', fullPage: true });
  const second = before.find((r) => r[0] === '2');
  await pg.click('#checkpoints tr[data-checkpoint="2"] button');
  expect(await step(pg) === Number(second[3]), `a later row moves the timeline forward to its trigger, step ${second[3]}; at ${await step(pg)}`);
  await pg.context().close();
});

await check('Share link confirms "copied" in both languages; a refused clipboard says so and selects the link', async () => {
  const pg = await open(undefined, { permissions: ['clipboard-read', 'clipboard-write'] });
  await pg.click('#read-Source');
  await pg.click('#btn-share');
  await pg.waitForSelector('#share-status[data-copied="yes"]', { timeout: 5000 });
  expect((await pg.textContent('#share-status')).includes('Link copied'), await pg.textContent('#share-status'));
  expect(await attr(pg, '#share-status', 'role') === 'status', 'announced politely');
  expect(await pg.evaluate(() => navigator.clipboard.readText()) === await pg.inputValue('#share-url'), 'the clipboard holds the link');
  await pg.click('#btn-lang');
  await pg.click('#btn-share');
  await pg.waitForSelector('#share-status[data-copied="yes"]', { timeout: 5000 });
  expect((await pg.textContent('#share-status')).includes('链接已复制'), await pg.textContent('#share-status'));
  await pg.context().close();
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  await context.addInitScript(() => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) } });
  });
  const refused = await context.newPage();
  refused.on('pageerror', (e) => errors.push(e.message));
  await refused.goto(srv.url);
  await refused.waitForSelector('#app[data-ready="true"]');
  await refused.click('#btn-share');
  await refused.waitForSelector('#share-status[data-copied="no"]', { timeout: 5000 });
  expect((await refused.textContent('#share-status')).includes('press Ctrl+C to copy it'), await refused.textContent('#share-status'));
  const sel = await refused.evaluate(() => { const e = document.activeElement; return [e.id, e.selectionStart, e.selectionEnd, e.value.length]; });
  expect(sel[0] === 'share-url' && sel[1] === 0 && sel[2] === sel[3] && sel[3] > 20, `the link is focused and selected: ${sel}`);
  await context.close();
});

await check('Settings say when a value was clamped or refused, next to the field and in the notice; nothing else is lost', async () => {
  const pg = await open();
  await pg.selectOption('#sel-strategy', 'aligned');
  await pg.click('.more-settings summary');
  const set = async (sel, v) => { await pg.fill(sel, v); await pg.dispatchEvent(sel, 'change'); };
  await set('#inp-capacity', '3');
  await set('#inp-records', '9000');
  const clamped = 'Records per source partition: 9000 is above the maximum 5000; using 5000.';
  expect((await pg.textContent('#notice')).includes(clamped), await pg.textContent('#notice'));
  expect((await pg.textContent('#note-records')).includes(clamped), 'the note sits by the field');
  expect(await attr(pg, '#inp-records', 'aria-describedby') === 'note-records', 'the field is described by its note');
  expect(await pg.inputValue('#inp-records') === '5000' && (await pg.inputValue('#inp-capacity')) === '3', 'clamped; the capacity kept');
  expect((await pg.textContent('[data-task="Source"]')).includes('0 / 5000'), 'the run uses 5000');
  await pg.click('#read-Source');
  await set('#inp-seed', '2.5');
  expect((await pg.textContent('#notice')).includes('Seed: "2.5" is not a whole number; nothing changed.'), await pg.textContent('#notice'));
  expect((await pg.textContent('#note-seed')).includes('nothing changed'), 'by the field too');
  expect(await pg.inputValue('#inp-seed') === '1' && (await steps(pg)) === 1, `the seed and the run are kept: ${await pg.inputValue('#inp-seed')}, ${await steps(pg)}`);
  await pg.click('#inp-seed', { clickCount: 3 });
  await pg.keyboard.type('e');
  await pg.keyboard.press('Tab');
  expect((await pg.textContent('#notice')).includes('Seed: that is not a number; nothing changed.'), await pg.textContent('#notice'));
  expect(await pg.inputValue('#inp-seed') === '1' && (await steps(pg)) === 1, 'still kept');
  await set('#inp-tolerable', '-3');
  expect((await pg.textContent('#note-tolerable')).includes('-3 is below the minimum 0; using 0.'), await pg.textContent('#notice'));
  await pg.click('#btn-lang');
  await set('#inp-records', '7000');
  expect((await pg.textContent('#note-records')).includes('每个源分区的记录数：7000 超过上限 5000，改用 5000。'), await pg.textContent('#notice'));
  expect(await steps(pg) === 1, 'the same records: the run is kept');
  await pg.context().close();
});

await check('a disabled control\'s tooltip says why it is disabled, in both languages', async () => {
  const pg = await open();
  await pg.click('.more-settings summary');
  const disabled = () => pg.$$eval('.config select:disabled, .config input:disabled, .config option[disabled]',
    (es) => es.map((e) => ({ id: e.id || e.value, own: e.title, label: e.tagName === 'OPTION' ? e.title : e.closest('label').title })));
  let seen = 0;
  for (const job of ['line', 'line-sink']) {
    await pg.selectOption('#sel-job', job);
    for (const strategy of ['none', 'timers', 'aligned', 'at-least-once', 'unaligned', 'stop-the-world']) {
      await pg.selectOption('#sel-strategy', strategy);
      for (const d of await disabled()) {
        seen++;
        expect(d.own.length > 20 && d.label.length > 20, `${job} ${strategy}: ${d.id} says why: ${JSON.stringify(d)}`);
      }
    }
  }
  expect(seen >= 20, `${seen} disabled controls checked`);
  await pg.selectOption('#sel-strategy', 'timers');
  expect((await attr(pg, '#inp-interval', 'title')).includes('Aligned barriers (exactly once)'), 'names a strategy to choose');
  await pg.click('#btn-lang');
  for (const d of await disabled()) expect(/[\u4e00-\u9fff]/.test(d.own), `in Chinese: ${JSON.stringify(d)}`);
  await pg.click('#btn-lang');
  await pg.selectOption('#sel-lesson', '0');
  expect(await pg.isDisabled('#lesson-prev') && (await attr(pg, '#lesson-prev', 'title')).includes('first step'), 'the lesson\'s Previous says why');
  await pg.context().close();
});

await check('⟲ Reset starts the run over', async () => {
  await page.click('#btn-reset');
  expect(await step(page) === 0 && (await steps(page)) === 0, 'empty history');
});

await check('the barrier version: checkpoint, deliver by clicking lanes, crash, restore: exactly once', async () => {
  await page.selectOption('#sel-strategy', 'aligned');
  for (let i = 0; i < 3; i++) await page.click('#read-Source');
  await page.keyboard.press('c');
  expect(await page.$('[data-channel="Source->Map"] .barrier[data-checkpoint="1"]'), 'barrier 1 in the channel');
  for (const ch of ['Source->Map', 'Map->Count']) for (let i = 0; i < 4; i++) await page.click(`[data-channel="${ch}"] .lane-hit`);
  expect((await page.textContent('#jm-completed')).includes('1 ✓'), 'checkpoint 1 completed');
  await page.screenshot({ path: shots + '03-aligned-checkpoint-1366.png' });
  await page.click('#read-Source');
  await page.keyboard.press('x');
  await page.click('#btn-restore');
  await playToEnd(page);
  const v = await verdicts(page);
  expect(Object.values(v).length === 8 && Object.values(v).every((x) => x === 'exactly-once'), JSON.stringify(v));
});

await check('the Checkpoints tab lists checkpoints; a row moves the timeline to its trigger', async () => {
  await page.click('#tab-checkpoints');
  const rows = await page.$$eval('#checkpoints tr[data-checkpoint]', (r) => r.map((x) => x.dataset.checkpoint));
  expect(rows.includes('1'), rows.join());
  await page.click('#checkpoints tr[data-checkpoint="1"] button');
  expect(await step(page) === 4, `trigger of checkpoint 1 was step 4, at ${await step(page)}`);
  expect(await page.isVisible('#subtasks'), 'per-subtask table');
  await page.click('#tab-narration');
});

await check('two inputs, aligned: the early channel is blocked and its records buffered', async () => {
  await page.selectOption('#sel-job', 'two-inputs');
  for (const k of ['#read-Left', '#read-Right']) await page.click(k);
  await page.keyboard.press('c');
  await page.click('#read-Left');
  await page.click('[data-channel="Left->Count"] .lane-hit');
  await page.click('[data-channel="Left->Count"] .lane-hit');
  expect(await attr(page, '[data-channel="Left->Count"]', 'data-blocked') === 'true', 'blocked');
  expect(await page.$('[data-channel="Left->Count"] .token.buffered'), 'buffered record');
  expect(await page.$('[data-aligning="1"]'), 'Count shows it is aligning');
  expect(await attr(page, '[data-channel="Left->Count"] .lane-hit', 'aria-disabled') === 'true', 'a blocked lane cannot be clicked');
  await page.screenshot({ path: shots + '04-two-inputs-alignment-1366.png' });
});

await check('✖ Crash JobManager loses the pending checkpoint', async () => {
  await page.click('#btn-crash-jm');
  expect(await attr(page, '#jobmanager', 'data-up') === 'false', 'JobManager down');
  await page.click('#tab-checkpoints');
  expect((await page.textContent('#checkpoints')).includes('JobManager failure'), 'failed: JobManager failure');
  await page.keyboard.press('r');
  expect(await attr(page, '#jobmanager', 'data-up') === 'true', 'a new JobManager');
  await page.click('#tab-narration');
});

await check('a task\'s own ✖ Crash and ◷ Save buttons', async () => {
  await page.selectOption('#sel-job', 'line');
  await page.selectOption('#sel-strategy', 'timers');
  await page.click('#timer-Count');
  expect((await page.textContent('#storage')).includes('Count: empty'), 'Count saved');
  await page.click('#crash-Map');
  expect(await attr(page, '[data-task="Map"]', 'data-status') === 'crashed', 'Map crashed');
  expect(await attr(page, '[data-task="Count"]', 'data-status') === 'canceled', 'Count canceled by the failover');
  await page.click('#btn-restore');
});

await check('sinks: two-phase commit shows transactions to an outside reader', async () => {
  await page.selectOption('#sel-job', 'line-sink');
  await page.selectOption('#sel-strategy', 'aligned');
  await page.selectOption('#sel-sink', 'two-phase-commit');
  for (let i = 0; i < 2; i++) await page.click('#read-Source');
  for (const ch of ['Source->Map', 'Map->Count', 'Count->Sink']) for (let i = 0; i < 2; i++) await page.click(`[data-channel="${ch}"] .lane-hit`);
  await page.click('#tab-external');
  expect((await page.textContent('#external')).includes('open (invisible)'), 'open transaction');
  expect((await page.textContent('#external-box')).includes('0 row(s) a reader sees'), 'nothing visible yet');
  await page.keyboard.press('c');
  for (const ch of ['Source->Map', 'Map->Count', 'Count->Sink']) await page.click(`[data-channel="${ch}"] .lane-hit`);
  expect((await page.textContent('#external')).includes('pre-committed'), 'pre-committed when the barrier reaches the sink');
  expect((await page.textContent('#external-box')).includes('0 row(s) a reader sees'), 'nothing visible before the notification');
  expect((await page.textContent('#jm-completed')).includes('notify Sink: chk 1'), 'the notification is on its way');
  expect(await page.getAttribute('#notify-Sink', 'aria-disabled') === 'false', 'Notify enabled');
  await page.screenshot({ path: shots + '05-two-phase-commit-pending-1366.png' });
  await page.click('#notify-Sink');
  expect((await page.textContent('#external')).includes('committed (visible)'), 'committed when the notification arrives');
  expect((await page.textContent('#external-box')).includes('2 row(s) a reader sees'), 'visible after commit');
  expect(await page.getAttribute('#notify-Sink', 'aria-disabled') === 'true', 'Notify disabled with nothing on its way');
  expect((await page.textContent('#notify-Sink title')).includes('no notification'), 'the disabled Notify says why');
  await page.screenshot({ path: shots + '05-two-phase-commit-1366.png' });
  await page.click('#tab-narration');
});

await check('a refused key names its problem and changes nothing', async () => {
  const before = await steps(page);
  await page.keyboard.press('t');
  const notice = await page.textContent('#notice');
  expect(notice.includes("Can't fire all timers: snapshot timers belong to per-task timers, not to"), notice);
  // No internal names: no scenario-file ids, no "(1 channel(s))".
  expect(!/strategy (timers|aligned|none|unaligned)|Can't all timers|channel\(s\)/.test(notice), `internal names: ${notice}`);
  expect(await steps(page) === before, 'nothing changed');
  await page.click('#notice .dismiss');
  expect((await page.textContent('#notice')).trim() === '', 'dismissed');
});

await check('every control is reachable by keyboard and labelled', async () => {
  const unlabelled = await page.$$eval('button, select, input, [role="button"]', (els) => els.filter((e) => {
    const name = e.getAttribute('aria-label') || e.textContent.trim() || (e.labels && e.labels.length && e.labels[0].textContent.trim());
    return !name;
  }).map((e) => e.outerHTML.slice(0, 80)));
  expect(unlabelled.length === 0, unlabelled.join('\n'));
  await page.focus('#btn-reset');
  const seen = new Set();
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    seen.add(await page.evaluate(() => document.activeElement.id || document.activeElement.getAttribute('aria-label') || document.activeElement.tagName));
  }
  for (const id of ['btn-step', 'btn-play', 'btn-checkpoint', 'btn-crash', 'inp-timeline', 'read-Source']) expect(seen.has(id), `Tab reaches ${id}`);
});

await check('中文 switches the language without losing the run', async () => {
  const before = await steps(page);
  await page.click('#btn-lang');
  expect((await page.textContent('#btn-step')).includes('单步'), 'Chinese label');
  expect((await page.textContent('#tally-state')).includes('状态'), 'Chinese verdict');
  expect(await steps(page) === before, 'run kept');
  await page.screenshot({ path: shots + '06-chinese-1366.png' });
  await page.click('#btn-lang');
  expect((await page.textContent('#btn-step')).includes('Step'), 'back to English');
});

await check('the projector view at 1920x1080', async () => {
  const big = await open({ width: 1920, height: 1080 });
  await big.selectOption('#sel-job', 'keyed-shuffle');
  await big.selectOption('#sel-strategy', 'unaligned');
  for (let i = 0; i < 6; i++) await big.keyboard.press('ArrowRight');
  await big.keyboard.press('c');
  for (let i = 0; i < 4; i++) await big.keyboard.press('ArrowRight');
  const box = await big.$eval('#canvas', (c) => c.getBoundingClientRect().width);
  expect(box > 1100, `canvas is ${box}px wide`);
  await big.screenshot({ path: shots + '07-keyed-shuffle-unaligned-1920.png' });
  await big.context().close();
});

await check('motion respects prefers-reduced-motion', async () => {
  const calm = await open({ width: 1366, height: 768 }, { reducedMotion: 'reduce' });
  await calm.click('#read-Source');
  const t = await calm.$eval('.token', (el) => getComputedStyle(el).transitionDuration);
  expect(t === '0s', `transition ${t}`);
  const moving = await open({ width: 1366, height: 768 });
  await moving.click('#read-Source');
  const m = await moving.$eval('.token', (el) => getComputedStyle(el).transitionDuration);
  expect(m !== '0s', `tokens glide: ${m}`);
  await calm.context().close();
  await moving.context().close();
});

async function lessonToPredict(pg, index) {
  await pg.selectOption('#sel-lesson', String(index));
  for (let i = 0; i < 12 && !(await pg.$('#predict')); i++) await pg.keyboard.press('PageDown');
  expect(await pg.$('#predict'), 'reached the predict step');
}
// Marks each record on a predict step: one click is exactly once, two lost, three duplicated.
async function mark(pg, guesses) {
  const clicks = { 'exactly-once': 1, lost: 2, duplicated: 3 };
  for (const [r, v] of Object.entries(guesses)) {
    for (let i = 0; i < clicks[v]; i++) await pg.click(`#predict-${r}`);
    expect(await attr(pg, `#predict-${r}`, 'data-prediction') === v, `${r} marked ${v}`);
  }
}
const lesson2Right = { a: 'lost', b: 'lost', c: 'lost', d: 'exactly-once', e: 'exactly-once', f: 'exactly-once', g: 'exactly-once', h: 'exactly-once' };

await check('lesson 2: predictions start unmarked; Reveal without marks says how many are left and does not reveal', async () => {
  const pg = await open();
  await lessonToPredict(pg, 1);
  const chips = await pg.$$eval('.predict-chip', (cs) => cs.map((c) => [c.dataset.prediction, c.textContent, c.getAttribute('aria-label')]));
  expect(chips.length === 8 && chips.every(([p, t]) => p === 'unmarked' && t.includes('?')), JSON.stringify(chips));
  expect(chips[0][2] === 'a: not marked yet', `accessible label ${chips[0][2]}`);
  const stepsBefore = await steps(pg);
  await pg.click('#lesson-next');
  expect(await attr(pg, '#lesson', 'data-revealed') === 'false', 'the button did not reveal');
  expect((await pg.textContent('#notice')).includes('Mark every record first: 8 left'), await pg.textContent('#notice'));
  expect(await steps(pg) === stepsBefore, 'nothing played');
  await mark(pg, { a: 'lost', b: 'exactly-once' });
  await pg.keyboard.press('PageDown');
  expect(await attr(pg, '#lesson', 'data-revealed') === 'false', 'the clicker key did not reveal');
  expect((await pg.textContent('#notice')).includes('6 left'), await pg.textContent('#notice'));
  await pg.click('#btn-lang');
  expect((await pg.textContent('#notice')).includes('请先标记每一条记录：还剩 6 条'), await pg.textContent('#notice'));
  expect((await pg.textContent('#predict-left')).includes('还有 6 条记录未标记'), 'the count under the chips');
  await pg.click('#btn-lang');
  expect((await pg.textContent('#predict-c')).includes('?'), 'c still unmarked');
  await pg.screenshot({ path: shots + '08b-lesson2-mark-every-record-1366.png' });
  await pg.context().close();
});

await check('lesson 16: backpressure on the canvas, a checkpoint predicted with the keys, the chart\'s bars and timeout line, in both languages', async () => {
  const pg = await open();
  await pg.selectOption('#sel-lesson', '15');
  await pg.waitForSelector('#lesson[data-lesson="backpressure"]');
  await pg.keyboard.press('PageDown');
  // Each task's corner says what it does; Source is held back.
  await pg.waitForSelector('#canvas [data-task="Source"] [data-flow]');
  const flows = await pg.$$eval('#canvas [data-task] [data-flow]', (els) => els.map((e) => e.closest('[data-task]').dataset.task + ':' + e.dataset.flow));
  expect(flows.includes('Source:backpressured') && flows.includes('Count:busy'), flows.join());
  const said = await pg.getAttribute('#canvas [data-task="Source"]', 'aria-label');
  expect(said.includes('backpressured') && said.includes('the last 10 steps'), said);
  for (let i = 0; i < 4 && !(await pg.$('#predict')); i++) await pg.keyboard.press('PageDown');
  expect(await pg.$('#predict-completes') && await pg.$('#predict-fails'), 'the two answers');
  await pg.keyboard.press('PageDown');
  expect(await attr(pg, '#lesson', 'data-revealed') === 'false', 'no reveal without a guess');
  expect((await noticeText(pg)).includes('will checkpoint 1 complete (1) or fail (2)'), await noticeText(pg));
  await pg.keyboard.press('1');
  expect(await attr(pg, '#predict-completes', 'aria-pressed') === 'true', 'key 1 chose completes');
  await pg.keyboard.press('2');
  expect(await attr(pg, '#predict-fails', 'aria-pressed') === 'true' && await attr(pg, '#predict-completes', 'aria-pressed') === 'false', 'key 2 chose fails');
  await pg.keyboard.press('PageDown');
  expect(await attr(pg, '#lesson', 'data-revealed') === 'true', 'revealed');
  expect(await attr(pg, '#score', 'data-actual') === 'fails' && await attr(pg, '#score', 'data-right') === '1', await pg.textContent('#score'));
  await pg.click('#tab-checkpoints');
  await pg.waitForSelector('#checkpoint-chart .chart-checkpoint[data-checkpoint="1"].failed');
  expect(await pg.$('#checkpoint-chart .timeout-line[data-timeout="15"]'), 'the timeout line');
  const bars = await pg.$$eval('#checkpoint-chart .chart-checkpoint[data-checkpoint="1"] rect.bar', (r) => r.map((x) => x.getAttribute('class')));
  expect(bars.length === 4, bars.join());
  const levels = await pg.$$eval('#task-time td[data-level]', (t) => t.map((x) => x.dataset.level));
  expect(levels.length === 3, levels.join());
  await pg.screenshot({ path: shots + '08f-lesson16-chart-1366.png' });
  await pg.click('#btn-lang');
  expect((await pg.textContent('#score')).includes('检查点 1'), await pg.textContent('#score'));
  expect((await pg.textContent('#checkpoint-chart figcaption')).includes('超时'), 'the chart in Chinese');
  await pg.click('#btn-lang');
  // A click on the checkpoint's bars moves the timeline to its trigger.
  await pg.click('#checkpoint-chart .chart-checkpoint[data-checkpoint="1"] .hit');
  await pg.waitForFunction(() => document.querySelector('#app').dataset.step === '17');
  // The remedies, each predicted with the clicker keys: unaligned completes, debloated completes.
  await pg.click('#tab-narration');
  for (const step of ['6', '8']) {
    for (let i = 0; i < 3 && (await attr(pg, '#lesson', 'data-step')) !== step; i++) await pg.keyboard.press('PageDown');
    await pg.waitForSelector(`#lesson[data-step="${step}"] #predict-completes`);
    await pg.keyboard.press('1');
    await pg.keyboard.press('PageDown');
    await pg.waitForSelector('#score[data-actual="completes"][data-right="1"]');
    await pg.click('#tab-checkpoints');
    await pg.waitForSelector('#checkpoint-chart .chart-checkpoint[data-checkpoint="1"].completed');
    await pg.click('#tab-narration');
  }
  await pg.click('#tab-checkpoints');
  const buffers = await pg.$eval('#task-time tr[data-task="Count"] td:last-child', (t) => t.textContent);
  expect(buffers === '1', `Count's debloated buffers: ${buffers}`);
  await pg.context().close();
});

await check('lesson 2: after Reveal each chip shows the guess and the outcome', async () => {
  const pg = await open();
  await lessonToPredict(pg, 1);
  await mark(pg, { ...lesson2Right, b: 'exactly-once', d: 'duplicated' });
  await pg.click('#lesson-next');
  expect(await attr(pg, '#lesson', 'data-revealed') === 'true', 'revealed');
  expect(await attr(pg, '#score', 'data-right') === '6', `score ${await attr(pg, '#score', 'data-right')}`);
  const b = await pg.textContent('#score [data-record="b"]');
  expect(b.includes('b: guessed exactly once · was lost ✘'), b);
  const a = await pg.textContent('#score [data-record="a"]');
  expect(a.includes('a: guessed lost · was lost ✔'), a);
  expect((await pg.textContent('#score [data-record="d"]')).includes('d: guessed duplicated · was exactly once ✘'), 'd');
  await pg.click('#btn-lang');
  const bz = await pg.textContent('#score [data-record="b"]');
  expect(bz.includes('b：猜 精确一次 · 实际 丢失 ✘'), bz);
  await pg.screenshot({ path: shots + '08c-lesson2-score-guess-and-outcome-zh-1366.png' });
  await pg.context().close();
});

await check('presenter mode at 1920x1080, lesson 2 in English: predict, reveal, score', async () => {
  const pres = await open({ width: 1920, height: 1080 });
  await pres.keyboard.press('p');
  expect(await attr(pres, '#app', 'data-presenter') === 'true', 'presenter on');
  expect(!(await pres.isVisible('#storage')) && !(await pres.isVisible('.tabs')), 'secondary panels hidden');
  await lessonToPredict(pres, 1);
  await mark(pres, lesson2Right);
  await pres.screenshot({ path: shots + '08-presenter-lesson2-predict-en-1920.png' });
  await pres.keyboard.press('ArrowRight');
  expect(await attr(pres, '#lesson', 'data-revealed') === 'true', 'the arrow key revealed (clicker)');
  expect(await attr(pres, '#score', 'data-right') === '8', 'all eight right');
  expect((await pres.textContent('#lesson-say')).includes('Lost: a, b and c'), 'reveal text');
  await pres.screenshot({ path: shots + '09-presenter-lesson2-reveal-en-1920.png' });
  await pres.keyboard.press('PageUp');
  expect(await attr(pres, '#lesson', 'data-revealed') === 'false', 'PageUp goes back before the reveal');
  await pres.keyboard.press('PageDown');
  await pres.click('#btn-lang');
  expect((await pres.textContent('#lesson-say')).includes('丢失的是 a、b、c'), 'Chinese reveal');
  expect((await pres.textContent('#score')).includes('你预测对了'), 'Chinese score');
  await pres.screenshot({ path: shots + '10-presenter-lesson2-reveal-zh-1920.png' });
  await pres.keyboard.press('Escape');
  expect(await attr(pres, '#app', 'data-presenter') === 'false', 'Escape leaves presenter mode');
  await pres.context().close();
});

await check('presenter mode in Chinese at 1920x1080: lesson 5, alignment', async () => {
  const pres = await open({ width: 1920, height: 1080 });
  await pres.click('#btn-lang');
  await pres.click('#btn-presenter');
  await pres.selectOption('#sel-lesson', '4');
  for (let i = 0; i < 3; i++) await pres.keyboard.press('PageDown');
  expect((await pres.textContent('#lesson-title')).includes('5.'), 'lesson 5');
  await pres.screenshot({ path: shots + '11-presenter-lesson5-zh-1920.png' });
  await pres.context().close();
});

await check('taking over a lesson and coming back to it', async () => {
  const pg = await open();
  await pg.selectOption('#sel-lesson', '3');
  await pg.waitForSelector('#lesson');
  await pg.keyboard.press('PageDown');
  await pg.waitForFunction(() => document.querySelector('.lesson-step')?.textContent.startsWith('step 2'));
  const lessonStep = await step(pg);
  await pg.click('#btn-crash');
  await pg.waitForSelector('#took-over');
  expect(await pg.isVisible('#took-over'), 'the lesson says the learner took over');
  await pg.click('#lesson-resume');
  await pg.waitForFunction(() => !document.querySelector('#took-over'));
  expect(await step(pg) === lessonStep && !(await pg.$('#took-over')), 'back where the lesson stands');
  await pg.click('#lesson-exit');
  expect(!(await pg.$('#lesson')), 'left the lesson');
  await pg.context().close();
});

await check('a shared link opens paused at the same frame', async () => {
  const pg = await open();
  await pg.selectOption('#sel-strategy', 'aligned');
  for (let i = 0; i < 2; i++) await pg.click('#read-Source');
  await pg.keyboard.press('c');
  await pg.keyboard.press('ArrowRight');
  await pg.keyboard.press('ArrowRight');
  await pg.keyboard.press('ArrowLeft');
  await pg.click('#btn-share');
  const url = await pg.inputValue('#share-url');
  const at = await step(pg);
  const v = await verdicts(pg);
  const fresh = await (await browser.newContext({ viewport: { width: 1366, height: 768 } })).newPage();
  fresh.on('pageerror', (e) => errors.push(e.message));
  await fresh.goto(url);
  await fresh.waitForSelector('#app[data-ready="true"]');
  expect(await step(fresh) === at, `step ${await step(fresh)} instead of ${at}`);
  expect(await steps(fresh) === at + 1, 'the history after the playhead is kept');
  expect(JSON.stringify(await verdicts(fresh)) === JSON.stringify(v), 'same verdict');
  expect(!(await fresh.$('#app.playing')), 'paused');
  expect((await noticeText(fresh)).includes('Opened the link'), 'says it opened the link');
  await fresh.context().close();
  await pg.context().close();
});

await check('export, then import the file: the same run', async () => {
  const pg = await open();
  for (let i = 0; i < 3; i++) await pg.click('#read-Source');
  await pg.keyboard.press('t');
  const [download] = await Promise.all([pg.waitForEvent('download'), pg.click('#btn-export')]);
  const file = await download.path();
  const other = await open();
  await other.setInputFiles('#inp-import', file);
  await other.waitForFunction(() => document.querySelector('#app').dataset.steps === '4');
  expect((await noticeText(other)).includes('Opened the file'), 'opened the file');
  expect(await pg.evaluate(() => true), 'alive');
  await pg.context().close();
  await other.context().close();
});

await check('malformed links and files name their problem and keep the current run', async () => {
  const cases = [
    ['link', '#run=not*base64', 'not a Barrierscope link'],
    ['link', '#run=' + Buffer.from('{"barrierscope": 9}').toString('base64url'), 'format version 9'],
    ['link', '#run=' + Buffer.from('{"barrierscope":1,"job":"line","settings":{},"seed":1,"actions":"d0","at":0}').toString('base64url'), 'action #1 (deliver Source->Map) is not enabled'],
    ['link', '#run=' + Buffer.from('{"barrierscope":1,"job":"line","settings":{"strategy":"timers","handler":{"first":"wait","after":"block","last":"snapshot","in-flight":false}},"seed":1,"actions":"","at":0}').toString('base64url'), "runs on strategy aligned's coordinator"],
    ['file', '{"barrierscope": 1, "job": "line", "settings": {"strategy": "aligned", "handler": {"first": "wait", "after": "block", "last": "forward-only", "in-flight": false}}, "seed": 1, "actions": "", "at": 0}', 'forward only on the last barrier needs a snapshot'],
    ['file', '{ this is not json', 'not a valid JSON run'],
    ['file', '{"barrierscope": 1, "job": "moon", "settings": {}, "seed": 1, "actions": "", "at": 0}', 'no built-in job is called "moon"'],
    ['file', '{"barrierscope": 1, "job": "line", "settings": {}, "seed": 1, "actions": "r0", "at": 50}', 'playhead 50 is past its 1 steps'],
    ['file', 'x'.repeat(5 * 1024 * 1024), 'at most 4194304 are allowed'],
  ];
  for (const [kind, payload, words] of cases) {
    const pg = await open();
    await pg.click('#read-Source');
    if (kind === 'link') {
      await pg.evaluate((h) => { location.hash = h; }, payload);
    } else {
      await pg.setInputFiles('#inp-import', { name: 'run.json', mimeType: 'application/json', buffer: Buffer.from(payload) });
    }
    await pg.waitForFunction(() => document.querySelector('#notice').textContent.length > 0);
    const notice = await noticeText(pg);
    expect(notice.includes(words) && notice.includes('Your current run is unchanged.'), `${kind}: ${notice}`);
    expect(await steps(pg) === 1, `${kind}: the run is untouched`);
    await pg.context().close();
  }
});

await check('Settings: a generated input of 150 records per partition; the ledger lists 100 and says so', async () => {
  const pg = await open();
  await pg.selectOption('#sel-job', 'keyed-shuffle');
  await pg.click('.more-settings summary');
  await pg.fill('#inp-records', '150');
  await pg.dispatchEvent('#inp-records', 'change');
  expect((await pg.textContent('[data-task="Source[0]"]')).includes('0 / 150'), 'Source[0] has 150 records');
  expect(await pg.$$eval('#ledger tbody tr', (r) => r.length) === 100, 'capped at 100 rows');
  expect((await pg.textContent('#ledger-more')).includes('200 more records'), 'says how many are not listed');
  await pg.fill('#inp-records', '');
  await pg.dispatchEvent('#inp-records', 'change');
  expect((await pg.textContent('[data-task="Source[0]"]')).includes('0 / 6'), 'back to the story input');
  await pg.context().close();
});

await check('Settings: a capacity for one channel alone: Map->Count fills behind a slow Count and turns amber, Source->Map stays unbounded, in both languages', async () => {
  const pg = await open();
  await pg.selectOption('#sel-job', 'line');
  await pg.selectOption('#sel-strategy', 'aligned');
  await pg.click('.more-settings summary');
  await pg.selectOption('#sel-slow-task', { label: 'Count' });
  await pg.fill('#inp-capacity', '2');
  await pg.dispatchEvent('#inp-capacity', 'change');
  await pg.selectOption('#sel-bounded-channel', { label: 'only Map->Count' });
  expect(await pg.$eval('#sel-bounded-channel', (e) => e.selectedOptions[0].textContent) === 'only Map->Count', 'one channel chosen');
  expect(await pg.$eval('#inp-capacity', (e) => e.value) === '2', 'the capacity stays 2');
  await pg.click('.more-settings summary');
  const lane = (name) => pg.$eval(`.lane[data-channel="${name}"]`, (e) => ({ cap: e.dataset.capacity, queued: Number(e.dataset.queued), full: e.classList.contains('full'), said: e.getAttribute('aria-label') }));
  expect((await lane('Source->Map')).cap === undefined && (await lane('Map->Count')).cap === '2', 'only Map->Count is bounded');
  const flow = (t) => pg.$eval(`#canvas [data-task="${t}"]`, (e) => e.querySelector('[data-flow]')?.dataset.flow ?? 'none');
  let [sawFull, mapHeld, sourceHeld] = [false, false, false];
  for (let i = 0; i < 30 && !(sawFull && mapHeld); i++) {
    await pg.click('#btn-step');
    const mc = await lane('Map->Count');
    expect(mc.queued <= 2, `Map->Count holds at most 2: ${mc.queued}`);
    sawFull ||= mc.full;
    mapHeld ||= mc.full && (await flow('Map')) === 'backpressured';
    sourceHeld ||= (await flow('Source')) === 'backpressured';
  }
  expect(sawFull && mapHeld, `Map->Count filled (${sawFull}) and held Map back (${mapHeld})`);
  expect(!sourceHeld, 'Source->Map is unbounded: the source is never held back');
  const full = await lane('Map->Count');
  expect(full.said.includes('full: 2 of 2 buffers taken'), full.said);
  await pg.screenshot({ path: shots + '08g-one-channel-bounded-1366.png' });
  await pg.click('#btn-lang');
  const zh = await lane('Map->Count');
  expect(zh.said.includes('已满：2/2 个缓冲已占用'), zh.said);
  await pg.context().close();
});

await check('Settings: failover full or region restarts the line; tolerable failures only with checkpoints', async () => {
  const pg = await open();
  await pg.selectOption('#sel-job', 'line');
  await pg.selectOption('#sel-strategy', 'aligned');
  await pg.click('.more-settings summary');
  for (const failover of ['full', 'region']) {
    await pg.selectOption('#sel-failover', failover);
    expect(await pg.$eval('#sel-failover', (e) => e.value) === failover, `failover ${failover} chosen`);
    await pg.click('.more-settings summary');
    for (let i = 0; i < 2; i++) await pg.click('#read-Source');
    await pg.click('#crash-Count');
    expect(await attr(pg, '[data-task="Count"]', 'data-status') === 'crashed', `${failover}: Count crashed`);
    expect(!(await pg.isDisabled('#btn-restore')), `${failover}: Restore enabled`);
    await pg.keyboard.press('r');
    for (const t of ['Source', 'Map', 'Count']) expect(await attr(pg, `[data-task="${t}"]`, 'data-status') === 'running', `${failover}: ${t} runs again`);
    await playToEnd(pg);
    expect(Object.values(await verdicts(pg)).every((v) => v !== 'pending'), `${failover}: the run ends`);
    await pg.click('#btn-reset');
    await pg.click('.more-settings summary');
  }
  expect(!(await pg.isDisabled('#inp-tolerable')), 'tolerable failures editable under aligned');
  await pg.fill('#inp-tolerable', '2');
  await pg.dispatchEvent('#inp-tolerable', 'change');
  expect(await pg.$eval('#inp-tolerable', (e) => e.value) === '2', 'tolerable failures kept');
  await pg.selectOption('#sel-strategy', 'timers');
  expect(await pg.$('#inp-tolerable') !== null, 'the tolerable field exists');
  expect(await pg.isDisabled('#inp-tolerable'), 'disabled under timers');
  expect((await pg.$eval('#inp-tolerable', (e) => e.closest('label').title)).includes('checkpointing strategy'), 'says why');
  await pg.context().close();
});

await check('unaligned barriers are drawn hollow with a mark, not by colour alone', async () => {
  const pg = await open();
  await pg.selectOption('#sel-job', 'two-inputs');
  await pg.selectOption('#sel-strategy', 'unaligned');
  for (let i = 0; i < 2; i++) await pg.click('#read-Left');
  await pg.click('#read-Right');
  await pg.keyboard.press('c');
  const marks = await pg.$$eval('.barrier.unaligned', (els) => els.map((e) => e.textContent));
  expect(marks.length > 0 && marks.every((t) => t.includes('⇥u')), `unaligned barriers: ${marks}`);
  await pg.screenshot({ path: shots + '12-unaligned-barrier-1366.png' });
  await pg.context().close();
});

const playing = (pg) => pg.$eval('#app', (a) => a.classList.contains('playing'));
const value = (pg, sel) => pg.$eval(sel, (s) => s.value);

await check('Space plays and pauses from a focused button, Read ▸ and a lane; Enter still acts on a lane', async () => {
  const pg = await open();
  await pg.click('#read-Source');
  expect(await steps(pg) === 1, 'read one');
  expect(await pg.evaluate(() => document.activeElement.id) === 'read-Source', 'Read ▸ has the focus');
  await pg.keyboard.press('Space');
  expect(await playing(pg), 'Space on Read ▸ plays');
  await pg.keyboard.press('Space');
  expect(!(await playing(pg)), 'and pauses');
  expect(await attr(pg, '[data-channel="Source->Map"]', 'data-queued') !== null, 'alive');
  await pg.click('#btn-reset');
  for (let i = 0; i < 2; i++) await pg.click('#read-Source');
  await pg.focus('#btn-reset');
  await pg.keyboard.press('Space');
  expect(await playing(pg), 'Space on a focused Reset plays');
  await pg.keyboard.press('Space');
  expect(!(await playing(pg)) && (await steps(pg)) >= 2, `Space did not reset the run (${await steps(pg)} steps)`);
  await pg.click('#btn-reset');
  for (let i = 0; i < 2; i++) await pg.click('#read-Source');
  await pg.focus('[data-channel="Source->Map"] .lane-hit');
  await pg.keyboard.press('Space');
  expect(await playing(pg), 'Space on a focused lane plays');
  await pg.keyboard.press('Space');
  expect(!(await playing(pg)), 'and pauses');
  await pg.click('#btn-reset');
  await pg.click('#read-Source');
  await pg.focus('[data-channel="Source->Map"] .lane-hit');
  await pg.keyboard.press('Enter');
  expect(await steps(pg) === 2 && (await attr(pg, '[data-channel="Source->Map"]', 'data-queued')) === '0', 'Enter on a lane delivers');
  await pg.context().close();
});

await check('PageDown and PageUp on the focused Lesson menu step the lesson, never the menu', async () => {
  const pg = await open();
  await pg.selectOption('#sel-lesson', '3');
  await pg.focus('#sel-lesson');
  await pg.keyboard.press('PageDown');
  expect(await value(pg, '#sel-lesson') === '3', `menu moved to ${await value(pg, '#sel-lesson')}`);
  expect((await pg.textContent('#lesson-title')).includes('4.'), 'still lesson 4');
  expect(await attr(pg, '#lesson', 'data-step') === '2', 'PageDown stepped the lesson');
  await pg.keyboard.press('PageUp');
  expect(await value(pg, '#sel-lesson') === '3' && (await attr(pg, '#lesson', 'data-step')) === '1', 'PageUp stepped back');
  await pg.click('#lesson-exit');
  await pg.focus('#sel-lesson');
  await pg.keyboard.press('PageDown');
  await pg.keyboard.press('ArrowRight');
  expect(await value(pg, '#sel-lesson') === 'none' && !(await pg.$('#lesson')), 'without a lesson, PageDown leaves the menu alone');
  await pg.context().close();
});

await check('→ and ← on a focused select step the run, never the strategy or the job', async () => {
  const pg = await open();
  await pg.selectOption('#sel-strategy', 'aligned');
  for (let i = 0; i < 2; i++) await pg.click('#read-Source');
  await pg.focus('#sel-strategy');
  await pg.keyboard.press('ArrowRight');
  expect(await value(pg, '#sel-strategy') === 'aligned', `strategy became ${await value(pg, '#sel-strategy')}`);
  expect(await steps(pg) === 3, `→ stepped the run (${await steps(pg)} steps)`);
  await pg.keyboard.press('ArrowLeft');
  expect(await value(pg, '#sel-strategy') === 'aligned' && (await step(pg)) === 2, '← stepped back');
  await pg.focus('#sel-job');
  const job = await value(pg, '#sel-job');
  await pg.keyboard.press('ArrowRight');
  await pg.keyboard.press('PageDown');
  expect(await value(pg, '#sel-job') === job && (await steps(pg)) === 3, 'the job stays, the run goes on');
  await pg.context().close();
});

await check('the Lesson menu shows the lesson that runs: after a strategy change and after an import', async () => {
  const a = await open();
  await a.selectOption('#sel-lesson', '1');
  const [download] = await Promise.all([a.waitForEvent('download'), a.click('#btn-export')]);
  const file = await download.path();
  const pg = await open();
  await pg.selectOption('#sel-lesson', '3');
  const now = await value(pg, '#sel-strategy');
  const other = await pg.$$eval('#sel-strategy option', (os, now) => os.map((o) => o.value).find((v) => v !== now), now);
  await pg.selectOption('#sel-strategy', other);
  expect(!(await pg.$('#lesson')), 'the strategy change left the lesson');
  expect(await value(pg, '#sel-lesson') === 'none', `menu shows ${await value(pg, '#sel-lesson')}`);
  expect((await pg.$eval('#sel-lesson', (s) => s.selectedOptions[0].textContent)).includes('Free play'), 'shows Free play');
  await pg.setInputFiles('#inp-import', file);
  await pg.waitForSelector('#lesson');
  expect(await value(pg, '#sel-lesson') === '1', `after import the menu shows ${await value(pg, '#sel-lesson')}`);
  expect((await pg.textContent('#lesson-title')).includes('2.'), 'lesson 2 runs');
  await pg.context().close();
  await a.context().close();
});

await check('⇥ End on keyed-shuffle with 150 records per partition: the end in under 2 s, every record exactly once', async () => {
  const pg = await open();
  await pg.selectOption('#sel-job', 'keyed-shuffle');
  await pg.selectOption('#sel-strategy', 'aligned');
  await pg.click('.more-settings summary');
  await pg.fill('#inp-records', '150');
  await pg.dispatchEvent('#inp-records', 'change');
  expect((await pg.textContent('[data-task="Source[0]"]')).includes('0 / 150'), 'Source[0] has 150 records');
  expect(!(await pg.isDisabled('#btn-end')), 'End enabled at the start');
  const t0 = Date.now();
  await pg.click('#btn-end');
  await pg.waitForFunction(() => document.querySelector('#btn-end').disabled, null, { timeout: 10000 });
  const took = Date.now() - t0;
  expect(took < 2000, `took ${took} ms`);
  const n = await steps(pg);
  expect(await step(pg) === n && n > 600, `at the end of ${n} steps`);
  const tally = await pg.textContent('#tally-state');
  expect(tally.includes('300 exactly once · 0 lost · 0 duplicated · 0 on the way'), tally);
  const rows = await verdicts(pg);
  expect(Object.values(rows).every((v) => v === 'exactly-once'), JSON.stringify(rows));
  expect((await attr(pg, '#btn-end', 'title')).includes('nothing left to do'), 'disabled with a reason');
  await pg.keyboard.press('ArrowLeft');
  expect(await step(pg) === n - 1 && !(await pg.isDisabled('#btn-end')), 'the steps are in the timeline: back one, End enabled again');
  await pg.keyboard.press('e');
  expect(await step(pg) === n && (await steps(pg)) === n, 'E goes to the end of the history, which it keeps');
  console.log(`     (⇥ End: ${n} steps in ${took} ms)`);
  await pg.context().close();
});

await check('while the job is down the verdict waits for the restore, not "on its way"', async () => {
  const pg = await open();
  await pg.selectOption('#sel-strategy', 'aligned');
  await pg.click('#read-Source');
  await pg.keyboard.press('x');
  const down = await pg.textContent('#verdict');
  expect(down.includes('waiting for the restore') && !down.includes('on its way'), `down: ${down.slice(0, 160)}`);
  await pg.keyboard.press('r');
  const up = await pg.textContent('#verdict');
  expect(!up.includes('waiting for the restore'), `restored: ${up.slice(0, 160)}`);
  await pg.context().close();
});

await check('in Chinese the Checkpoints table headers stay on one line', async () => {
  const pg = await open({ width: 1366, height: 768 });
  await pg.click('#btn-lang');
  await pg.selectOption('#sel-strategy', 'aligned');
  await pg.keyboard.press('c');
  await pg.click('#tab-checkpoints');
  const tall = await pg.$$eval('.history th', (ths) => ths.filter((th) => {
    const line = parseFloat(getComputedStyle(th).lineHeight) || 20;
    return th.getBoundingClientRect().height > 1.6 * line + 8;
  }).map((th) => th.textContent));
  expect(tall.length === 0, `headers wrapped: ${tall.join(', ')}`);
  await pg.context().close();
});

// --- Storm's acker (issue 9) ---
await check('Storm: the acker is on the canvas; stepping init and acks completes a tree and commits', async () => {
  const pg = await open({ width: 1366, height: 768 });
  await pg.selectOption('#sel-job', 'line-sink');
  await pg.selectOption('#sel-strategy', 'storm-acker');
  expect(await pg.textContent('#btn-crash-jm').then((t) => t.includes('Nimbus')), 'the JobManager button is Nimbus');
  await pg.click('#read-Source');
  await pg.click('[data-ack-row="Source → acker"]');
  const val = await pg.getAttribute('.acker-row[data-root]', 'data-val');
  expect(val && val !== '0000000000000000', `one open edge: ${val}`);
  for (const [lane, row] of [['Source->Map', 'Map'], ['Map->Count', 'Count'], ['Count->Sink', 'Sink']]) {
    await pg.click(`[data-channel="${lane}"] .lane-hit`);
    await pg.click(`[data-ack-row="${row} → acker"]`);
  }
  expect(await pg.$('.acker-row[data-root]') === null, 'the tree reached 0 and left the table');
  await pg.click('[data-ack-row="acker → Source"]');
  expect((await pg.textContent('[data-spout="Source"]')).includes('committed offset 1'), 'committed');
  await pg.screenshot({ path: shots + 'storm-acker-1366.png' });
  // Nimbus dies: the job keeps running.
  await pg.click('#btn-crash-jm');
  await pg.click('#read-Source');
  expect((await pg.textContent('[data-task="Source"]')).includes('offset 2 / 8'), 'the spout still reads while Nimbus is down');
  expect((await pg.textContent('#jobmanager')).includes('Nimbus down'), 'Nimbus down shown');
  await pg.context().close();
});

// --- canvas and presenter (issue 18) ---
const JOBS = ['line', 'line-sink', 'two-inputs', 'diamond', 'keyed-shuffle'];
// The smallest text drawn on the canvas, in screen pixels: font size × the SVG's scale.
const minCanvasText = (pg) => pg.evaluate(() => {
  let min = Infinity;
  let who = '';
  for (const t of document.querySelectorAll('#canvas text, #canvas tspan')) {
    if (!t.textContent.trim()) continue;
    const m = t.getScreenCTM();
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    if (px < min) { min = px; who = t.textContent.trim().slice(0, 24); }
  }
  return { min, who };
});
// Clicks and keys dispatched in the page (fast: no waiting between them).
const clickN = (pg, sel, n = 1) => pg.evaluate(([sel, n]) => {
  for (let i = 0; i < n; i++) document.querySelector(sel)?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
}, [sel, n]);
const keyN = (pg, key, n = 1) => pg.evaluate(([key, n]) => {
  for (let i = 0; i < n; i++) window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
}, [key, n]);
const settled = (pg) => pg.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
const idSel = (id) => `[id="${id}"]`;
async function generated(pg, job, records = 150) {
  await pg.selectOption('#sel-job', job);
  await pg.click('.more-settings summary');
  await pg.fill('#inp-records', String(records));
  await pg.dispatchEvent('#inp-records', 'change');
  await pg.click('.more-settings summary');
}
// What is in view without scrolling: the page does not scroll, and each element lies inside the window.
const inView = (pg, sels) => pg.evaluate((sels) => {
  const out = [];
  if (document.documentElement.scrollHeight > innerHeight + 1) out.push(`the page scrolls (${document.documentElement.scrollHeight} > ${innerHeight})`);
  for (const s of sels) {
    for (const el of document.querySelectorAll(s)) {
      const r = el.getBoundingClientRect();
      if (r.top < -1 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1 || r.height === 0) out.push(`${s} at ${r.top.toFixed(0)}..${r.bottom.toFixed(0)}`);
    }
  }
  return out;
}, sels);

// Everything drawn on the canvas that must not touch, and the pairs that do. Text boxes lose 12 %
// of their height top and bottom (the font's line gap, where no ink is).
const canvasOverlaps = (pg) => pg.evaluate(() => {
  const svg = document.getElementById('canvas');
  const box = (el, f = 0) => { const r = el.getBoundingClientRect(); return { l: r.left + 1, r: r.right - 1, t: r.top + r.height * f, b: r.bottom - r.height * f }; };
  const hit = (a, b) => Math.min(a.r, b.r) - Math.max(a.l, b.l) > 0.5 && Math.min(a.b, b.b) - Math.max(a.t, b.t) > 0.5;
  const inside = (a, b) => a.l >= b.l - 1.5 && a.r <= b.r + 1.5 && a.t >= b.t - 1.5 && a.b <= b.b + 1.5;
  const name = (el) => (el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 28);
  const owner = (el) => el.closest('[data-task]')?.dataset.task || el.closest('#jobmanager, #external-box, .down-banner, .cut')?.id
    || (el.closest('.lane') ? 'lane:' + el.closest('.lane').dataset.channel : el.closest('[data-lane-label]') ? 'label:' + el.closest('[data-lane-label]').dataset.laneLabel : '?');
  const texts = [...svg.querySelectorAll('text')].filter((t) => !t.closest('.token, .barrier') && name(t))
    .map((t) => ({ el: t, r: box(t, 0.12), what: `text "${name(t)}" (${owner(t)})`, owner: owner(t) }));
  const tokens = [...svg.querySelectorAll('.token, .barrier')].map((t) => ({ r: box(t), lane: t.closest('.lane').dataset.channel,
    what: `token ${t.dataset.record || t.dataset.checkpoint || t.dataset.cancel} on ${t.closest('.lane').dataset.channel}` }));
  const boxes = [...svg.querySelectorAll('.task-box, #jobmanager > rect, #external-box > rect, .down-banner > rect')]
    .map((b) => ({ r: box(b), owner: owner(b), what: `box of ${owner(b)}` }));
  const lines = (sel) => [...svg.querySelectorAll(sel)].flatMap((p) => {
    const m = p.getScreenCTM();
    const raw = p.tagName === 'line' ? [[+p.getAttribute('x1'), +p.getAttribute('y1')], [+p.getAttribute('x2'), +p.getAttribute('y2')]]
      : p.getAttribute('points').trim().split(/\s+/).map((s) => s.split(',').map(Number));
    const pts = raw.map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
    return pts.slice(1).map((q, i) => ({ a: pts[i], b: q, el: p }));
  });
  const crosses = (s, r) => {
    for (let k = 0; k <= 60; k++) {
      const x = s.a[0] + (s.b[0] - s.a[0]) * k / 60; const y = s.a[1] + (s.b[1] - s.a[1]) * k / 60;
      if (x > r.l && x < r.r && y > r.t && y < r.b) return true;
    }
    return false;
  };
  const out = [];
  for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) if (hit(texts[i].r, texts[j].r)) out.push(`${texts[i].what} × ${texts[j].what}`);
  for (const t of texts) for (const k of tokens) if (hit(t.r, k.r)) out.push(`${t.what} × ${k.what}`);
  for (let i = 0; i < tokens.length; i++) for (let j = i + 1; j < tokens.length; j++) if (tokens[i].lane !== tokens[j].lane && hit(tokens[i].r, tokens[j].r)) out.push(`${tokens[i].what} × ${tokens[j].what}`);
  for (const t of texts) for (const b of boxes) if (b.owner !== t.owner && hit(t.r, b.r)) out.push(`${t.what} × ${b.what}`);
  for (const k of tokens) for (const b of boxes) if (hit(k.r, b.r)) out.push(`${k.what} × ${b.what}`);
  for (const s of lines('#cut polyline')) {
    for (const t of texts) if (crosses(s, t.r)) out.push(`the cut × ${t.what}`);
    for (const k of tokens) if (crosses(s, k.r)) out.push(`the cut × ${k.what}`);
  }
  for (const s of lines('.lane-line')) {
    const lane = s.el.closest('.lane').dataset.channel;
    for (const t of texts) if (t.owner !== 'lane:' + lane && crosses(s, t.r)) out.push(`lane ${lane} × ${t.what}`);
    for (const k of tokens) if (k.lane !== lane && crosses(s, k.r)) out.push(`lane ${lane} × ${k.what}`);
  }
  for (const s of lines('.flag-leader')) {
    const mine = s.el.closest('[data-lane-label]').dataset.laneLabel;
    for (const t of texts) if (t.owner !== 'label:' + mine && crosses(s, t.r)) out.push(`leader of ${mine} × ${t.what}`);
    for (const k of tokens) if (crosses(s, k.r)) out.push(`leader of ${mine} × ${k.what}`);
  }
  // Names fit what holds them: a token's label its token, a log cell's its cell, a button's its button.
  for (const [sel, shape] of [['.token', '.tok'], ['.log-cell', 'rect'], ['.chip', 'rect'], ['.snap-mark', 'rect'], ['.more', 'rect'], ['.barrier:not(.cancel-marker)', '.mark']]) {
    for (const g of svg.querySelectorAll(sel)) {
      const t = g.querySelector('text'); const s = g.querySelector(shape);
      if (t && s && !inside(box(t, 0.2), box(s))) out.push(`"${name(t)}" sticks out of its ${sel}`);
    }
  }
  for (const task of svg.querySelectorAll('[data-task]')) {
    const b = box(task.querySelector('.task-box'));
    for (const t of task.querySelectorAll('.task-name, .task-kind, .state, .badge')) {
      const r = box(t, 0.2);
      if (r.l < b.l - 1 || r.r > b.r + 1) out.push(`"${name(t)}" sticks out of ${task.dataset.task}'s box`);
    }
  }
  return [...new Set(out)];
});

// A crowded run: many records read on every source, barriers in flight, saves and the cut drawn,
// channels blocked or flagged, depending on the strategy.
async function crowd(pg, strategy) {
  await pg.selectOption('#sel-strategy', strategy);
  const sources = await pg.$$eval('[id^="read-"]', (els) => els.map((e) => e.id));
  const lanes = await pg.$$eval('.lane[data-channel]', (els) => els.map((e) => e.dataset.channel));
  for (const s of sources) await clickN(pg, idSel(s), 8);
  if (strategy === 'timers') {
    for (const l of lanes) await clickN(pg, `[data-channel="${l}"] .lane-hit`, 2);
    await keyN(pg, 't');
    for (const l of lanes) await clickN(pg, `[data-channel="${l}"] .lane-hit`, 2);
    const timers = await pg.$$eval('[id^="timer-"]', (els) => els.map((e) => e.id));
    await clickN(pg, idSel(timers[timers.length - 1]));
  } else {
    await keyN(pg, 'c');
    await keyN(pg, 'ArrowRight', 25);
    await keyN(pg, 'c');
    for (const s of sources) await clickN(pg, idSel(s), 6);
    await keyN(pg, 'ArrowRight', 12);
    await keyN(pg, 'c');
  }
  for (const s of sources) await clickN(pg, idSel(s), 6);
  await settled(pg);
}

const textSizes = {};
await check('canvas text: at 1366x768 never under 16 px in presenter mode, never under 11 px outside it, for every job', async () => {
  const problems = [];
  for (const presenter of [false, true]) {
    const pg = await open({ width: 1366, height: 768 });
    for (const job of JOBS) {
      await pg.selectOption('#sel-job', job);
      if (presenter && (await attr(pg, '#app', 'data-presenter')) !== 'true') await pg.keyboard.press('p');
      // A busy canvas: records read, saves and the cut drawn, flags shown.
      for (const s of await pg.$$eval('[id^="read-"]', (els) => els.map((e) => e.id))) await clickN(pg, idSel(s), 3);
      await keyN(pg, 't');
      await settled(pg);
      const { min, who } = await minCanvasText(pg);
      textSizes[`${job} ${presenter ? 'presenter' : 'normal'}`] = min.toFixed(1);
      const floor = presenter ? 16 : 11;
      if (!(min >= floor - 0.05)) problems.push(`${job}, ${presenter ? 'presenter' : 'normal'}: "${who}" is ${min.toFixed(1)} px`);
      if (presenter) problems.push(...(await inView(pg, ['#canvas', '#verdict'])).map((p) => `${job}: ${p}`));
    }
    await pg.context().close();
  }
  console.log(`     (smallest canvas text, px at 1366x768: ${Object.entries(textSizes).map(([k, v]) => `${k} ${v}`).join(', ')})`);
  expect(problems.length === 0, problems.join('\n'));
});

await check('presenter mode, every step of every lesson, at 1366x768 and 1920x1080: no scrolling, the lesson, its predictions and the verdict in view, canvas text at least 16 px', async () => {
  const problems = [];
  let smallest = Infinity;
  for (const [width, height] of [[1366, 768], [1920, 1080]]) {
    const pg = await open({ width, height });
    await pg.keyboard.press('p');
    const lessons = await pg.$$eval('#sel-lesson option', (os) => os.map((o) => o.value).filter((v) => v !== 'none'));
    for (const lesson of lessons) {
      await pg.selectOption('#sel-lesson', lesson);
      for (let guard = 0; guard < 20; guard++) {
        const at = `lesson ${+lesson + 1} step ${await attr(pg, '#lesson', 'data-step')}${(await attr(pg, '#lesson', 'data-revealed')) === 'true' ? ' revealed' : ''} at ${width}`;
        const { min, who } = await minCanvasText(pg);
        if (width === 1366) smallest = Math.min(smallest, min);
        if (!(min >= 15.95)) problems.push(`${at}: "${who}" is ${min.toFixed(1)} px`);
        problems.push(...(await inView(pg, ['#lesson-say', '#lesson-next', '.predict-chip', '#score', '#tally-state', '#verdict', '#canvas'])).map((p) => `${at}: ${p}`));
        if (await pg.$('#predict')) for (const chip of await pg.$$('.predict-chip')) await chip.click();
        if (await pg.isDisabled('#lesson-next')) break;
        await pg.keyboard.press('PageDown');
      }
    }
    if (width === 1366) await pg.screenshot({ path: shots + '13-presenter-lesson-end-1366.png' });
    await pg.context().close();
  }
  console.log(`     (presenter mode, every lesson step: smallest canvas text ${smallest.toFixed(1)} px at 1366x768)`);
  expect(problems.length === 0, problems.slice(0, 20).join('\n'));
});

await check('outside presenter mode at 1366x768: the verdict\'s columns are never cut off, and after Reveal the verdict is in view', async () => {
  const pg = await open({ width: 1366, height: 768 });
  const problems = [];
  for (const job of JOBS) {
    await pg.selectOption('#sel-job', job);
    await pg.keyboard.press('e');
    const cut = await pg.$$eval('#verdict td, #verdict th', (cells) => cells.filter((c) => c.scrollWidth > c.clientWidth + 1
      || c.getBoundingClientRect().right > c.closest('.ledger-scroll').getBoundingClientRect().right + 1).map((c) => c.textContent));
    if (cut.length) problems.push(`${job}: cut off: ${cut.slice(0, 3).join(', ')}`);
  }
  for (const lesson of ['1', '8']) {
    await lessonToPredict(pg, +lesson);
    for (const chip of await pg.$$('.predict-chip')) await chip.click();
    await pg.keyboard.press('PageDown');
    expect(await attr(pg, '#lesson', 'data-revealed') === 'true', `lesson ${+lesson + 1} revealed`);
    // In a lesson the verdict's records are chips (issue 48): every one of them in view.
    const out = await pg.evaluate(() => ['#tally-state', '#verdict h2', '#verdict-records', '#verdict-records li']
      .flatMap((s) => [...document.querySelectorAll(s)].map((el) => [s + (el.dataset.record ? `[${el.dataset.record}]` : ''), el.getBoundingClientRect()]))
      .filter(([, r]) => r.top < 0 || r.bottom > innerHeight || r.height === 0).map(([s, r]) => `${s} at ${r.top.toFixed(0)}`));
    if (out.length) problems.push(`lesson ${+lesson + 1} after Reveal: ${out.join(', ')}`);
  }
  await pg.screenshot({ path: shots + '14-lesson9-reveal-verdict-in-view-1366.png' });
  await pg.context().close();
  expect(problems.length === 0, problems.join('\n'));
});

await check('a crowded canvas never overlaps itself: every job, 150 records per partition, timers, aligned, unaligned and crashed, normal and presenter', async () => {
  const problems = [];
  for (const presenter of [false, true]) {
    for (const job of JOBS) {
      const pg = await open({ width: 1366, height: 768 }, { reducedMotion: 'reduce' });
      await generated(pg, job);
      if (presenter) await pg.keyboard.press('p');
      for (const strategy of ['timers', 'aligned', 'unaligned', 'crash']) {
        if (strategy === 'crash') await keyN(pg, 'x');
        else await crowd(pg, strategy);
        await settled(pg);
        const found = await canvasOverlaps(pg);
        problems.push(...found.slice(0, 3).map((o) => `${job} ${strategy}${presenter ? ' presenter' : ''}: ${o}`));
        if (job === 'keyed-shuffle' && strategy === 'aligned') {
          const blocked = await pg.$$eval('.lane[data-blocked="true"]', (l) => l.length);
          expect(blocked > 0 && !(await pg.textContent('#jm-pending')).includes('none'), `${job}: blocked lanes and barriers in flight`);
          await pg.screenshot({ path: shots + `15-crowded-keyed-shuffle-${presenter ? 'presenter' : 'normal'}-1366.png` });
        }
        if (strategy === 'timers') expect((await pg.$$eval('[data-flag]', (f) => f.length)) > 0 && (await pg.$('#cut polyline')), `${job}: flags and the cut drawn`);
      }
      await pg.context().close();
    }
  }
  expect(problems.length === 0, problems.slice(0, 40).join('\n'));
});

await check('the legend explains the marks, in English and Chinese; in presenter mode it folds into a button', async () => {
  const pg = await open({ width: 1366, height: 768 });
  expect(await pg.isVisible('#legend ul'), 'the legend is open beside the canvas');
  // The legend explains what the strategy draws (issue 26): aligned barriers draw the most.
  await pg.selectOption('#sel-strategy', 'aligned');
  const en = await pg.textContent('#legend');
  for (const words of ['◉ n: the task saved its state at step n', 'the cut', 'ring: buffered behind a barrier', 'dashes: replayed', 'filled: checkpoint barrier', '✕n: cancel marker', 'the next record a source reads']) {
    expect(en.includes(words), `legend says "${words}": ${en}`);
  }
  // Aligned barriers without an alignment timeout never go unaligned: no hollow barrier (issue 26).
  expect(!en.includes('unaligned'), `the aligned legend explains no unaligned barrier: ${en}`);
  expect(await pg.$$eval('#legend .g-token.buffered, #legend .g-token.replayed, #legend .cancel-marker, #legend .g-snap', (g) => g.length) === 4, 'drawn with the canvas\'s marks');
  await pg.click('#btn-lang');
  const zh = await pg.textContent('#legend');
  for (const words of ['图例', '保存了状态', '缓存', '重放', '取消标记']) expect(zh.includes(words), `Chinese legend says "${words}"`);
  await pg.click('#btn-lang');
  await pg.keyboard.press('p');
  expect(!(await pg.isVisible('#legend ul')) && (await pg.isVisible('#legend summary')), 'folded in presenter mode');
  await pg.click('#legend summary');
  expect(await pg.isVisible('#legend ul'), 'opens on click');
  await pg.context().close();
});

await check('after a crash the source\'s log marks where the restore resumes, never a record it will skip; the next-record outline is not the focus ring\'s colour', async () => {
  const pg = await open({ width: 1366, height: 768 });
  const cells = (cls) => pg.$$eval(`[data-task="Source"] .log-cell.${cls} text`, (t) => t.map((x) => x.textContent));
  // Per-task timers: Source saves offset 3, reads d, crashes: the restore resumes at d.
  for (let i = 0; i < 3; i++) await pg.click('#read-Source');
  await pg.keyboard.press('t');
  await pg.click('#read-Source');
  expect(JSON.stringify(await cells('next')) === '["e"]', `next before the crash: ${await cells('next')}`);
  await pg.keyboard.press('x');
  expect((await cells('next')).length === 0, `no next-record outline while down: ${await cells('next')}`);
  expect(JSON.stringify(await cells('resume')) === '["d"]', `resumes at d (offset 3): ${await cells('resume')}`);
  await pg.keyboard.press('r');
  expect(JSON.stringify(await cells('next')) === '["d"]' && (await cells('resume')).length === 0, `after the restore next is d: ${await cells('next')}`);
  // Aligned: checkpoint 1 holds offset 2; two more reads, a crash: the restore resumes at c.
  await pg.selectOption('#sel-strategy', 'aligned');
  for (let i = 0; i < 2; i++) await pg.click('#read-Source');
  await pg.keyboard.press('c');
  for (const ch of ['Source->Map', 'Map->Count']) for (let i = 0; i < 3; i++) await pg.click(`[data-channel="${ch}"] .lane-hit`);
  for (let i = 0; i < 2; i++) await pg.click('#read-Source');
  await pg.click('#crash-Map');
  expect((await cells('next')).length === 0 && JSON.stringify(await cells('resume')) === '["c"]', `aligned: resumes at c: ${await cells('resume')}`);
  await pg.keyboard.press('r');
  // The colours: the focus ring (read from a focused button) and the next-record outline differ.
  await pg.focus('#btn-reset');
  await pg.keyboard.press('Shift+Tab');
  await pg.keyboard.press('Tab');
  const ring = await pg.evaluate(() => getComputedStyle(document.activeElement).outlineColor);
  const outline = await pg.$eval('[data-task="Source"] .log-cell.next rect', (r) => getComputedStyle(r).stroke);
  expect(ring === 'rgb(245, 158, 11)', `the focus ring is amber: ${ring}`);
  expect(outline !== ring && !/245, 158, 11/.test(outline), `the next-record outline ${outline} differs from the focus ring ${ring}`);
  await pg.context().close();
});

// --- JobManager HA (issue 9) ---
await check('JobManager HA: a standby wins the election; without HA a new JobManager, then a resubmission (retained or from nothing); the failovers compare', async () => {
  const pg = await open({ width: 1366, height: 768 });
  const text = (sel) => pg.textContent(sel);
  const lanes = async (ch, n) => { for (let i = 0; i < n; i++) await pg.click(`[data-channel="${ch}"] .lane-hit`); };
  // Checkpoint 1 completes with a and b; c is read and checkpoint 2 is pending; the JobManager fails.
  const story = async () => {
    await pg.click('#read-Source');
    await pg.click('#read-Source');
    await pg.keyboard.press('c');
    await lanes('Source->Map', 3);
    await lanes('Map->Count', 3);
    await pg.click('#read-Source');
    await pg.keyboard.press('c');
    await lanes('Source->Map', 1);
    await pg.keyboard.press('j');
  };
  const settings = async (ha, retention) => {
    await pg.click('.more-settings summary');
    await pg.selectOption('#sel-high-availability', ha);
    if (retention) await pg.selectOption('#sel-retention', retention);
    await pg.click('.more-settings summary');
  };
  const failover = async () => {
    await pg.click('#tab-checkpoints');
    const row = await pg.$eval('#failovers tbody tr:last-child', (r) => ({ steps: r.dataset.stepsDown, text: r.textContent }));
    await pg.click('#tab-narration');
    return row;
  };
  await pg.selectOption('#sel-job', 'line');
  // Per-task timers keep no checkpoints in the JobManager: the selects say why they are off.
  await pg.click('.more-settings summary');
  expect(await pg.isDisabled('#sel-high-availability'), 'HA is off under per-task timers');
  expect((await attr(pg, '#sel-high-availability', 'title')).includes('checkpointing strategy'), 'and says why');
  await pg.selectOption('#sel-strategy', 'aligned');
  expect(!(await pg.isDisabled('#sel-high-availability')), 'HA is on under aligned barriers');
  expect(await pg.$eval('#sel-high-availability', (e) => e.value) === 'standby', 'standby by default');
  expect(await pg.isDisabled('#sel-retention') && (await attr(pg, '#sel-retention', 'title')).includes('only without HA'), 'the retention matters only without HA');
  await pg.click('.more-settings summary');

  // With a standby: A fails, B wins the election at the restore, ids keep rising.
  expect((await text('#jm-title')).includes('A (leader') && (await text('#jm-title')).includes('B (standby)'), await text('#jm-title'));
  await story();
  expect(await attr(pg, '#jobmanager', 'data-up') === 'false', 'A is down');
  const during = await text('#jm-title');
  expect(during.includes('A ✖') && during.includes('B (standby) wins the election'), during);
  expect((await text('#jm-ha')).includes('pointer → chk 1'), await text('#jm-ha'));
  await pg.screenshot({ path: shots + 'ha-election-during-1366.png' });
  await pg.keyboard.press('r');
  const after = await text('#jm-title');
  expect(after.includes('B (leader)') && after.includes('A (standby)') && await attr(pg, '#jobmanager', 'data-leader') === 'B', after);
  expect((await text('#jm-ha')).includes('B elected at step'), await text('#jm-ha'));
  await pg.screenshot({ path: shots + 'ha-election-after-1366.png' });
  await pg.click('#btn-lang');
  expect((await text('#jm-title')).includes('B（主）') && (await text('#jm-title')).includes('A（备用）'), await text('#jm-title'));
  await pg.click('#btn-lang');
  await pg.keyboard.press('c');
  await pg.click('#tab-checkpoints');
  expect(await pg.$('#checkpoints tr[data-checkpoint="3"]'), 'the next checkpoint is 3: ids keep rising');
  await pg.click('#tab-narration');
  const standby = await failover();
  expect(standby.steps === '1' && standby.text.includes('B won the election') && standby.text.includes('checkpoint 1'), JSON.stringify(standby));

  // Without HA, retained: the job fails; R starts a JobManager, R resubmits from checkpoint 1.
  await settings('none', 'retain-on-cancellation');
  expect((await text('#jm-title')).includes('no HA'), await text('#jm-title'));
  await story();
  expect((await text('#jm-title')).includes('the job failed'), await text('#jm-title'));
  expect((await text('#btn-restore')).includes('Start a JobManager'), await text('#btn-restore'));
  await pg.keyboard.press('r');
  expect(await attr(pg, '#jobmanager', 'data-up') === 'true' && (await text('#btn-restore')).includes('Resubmit'), 'a new JobManager, the job not yet resubmitted');
  expect((await text('#jm-ha')).includes('from retained chk 1, ids continue at 2'), await text('#jm-ha'));
  await pg.keyboard.press('r');
  expect(await attr(pg, '#jobmanager', 'data-submission') === '2', 'the second submission');
  expect((await text('[data-task="Source"]')).includes('offset 2 / 8'), 'Source from checkpoint 1');
  await pg.keyboard.press('c');
  await pg.click('#tab-checkpoints');
  expect(await pg.$('#checkpoints tr[data-checkpoint="2"]') && !(await pg.$('#checkpoints tr[data-checkpoint="1"]')), 'the new job counts from 2');
  expect((await text('#checkpoints')).includes('Checkpoints of submission 1'), 'the failed job\'s checkpoints apart');
  await pg.click('#tab-narration');
  const retained = await failover();
  expect(retained.steps === '2' && retained.text.includes('resubmitted') && retained.text.includes('checkpoint 1'), JSON.stringify(retained));

  // Without HA or retention: resubmitted from nothing, ids from 1.
  await settings('none', 'no-externalized-checkpoints');
  await story();
  expect((await text('#jm-ha')).includes('no checkpoint retained'), await text('#jm-ha'));
  await pg.keyboard.press('r');
  await pg.keyboard.press('r');
  expect((await text('[data-task="Source"]')).includes('offset 0 / 8'), 'Source from offset 0');
  await pg.keyboard.press('c');
  await pg.click('#tab-checkpoints');
  expect(await pg.$('#checkpoints tr[data-checkpoint="1"]'), 'ids from 1 again');
  await pg.click('#tab-narration');
  const nothing = await failover();
  expect(nothing.steps === '2' && nothing.text.includes('nothing'), JSON.stringify(nothing));
  await pg.context().close();
});

// --- order and completeness (issue 9) ---
const marks = (pg, what) => pg.$$eval('#ledger tbody tr', (rows, w) => Object.fromEntries(rows.map((r) => [r.dataset.record, r.dataset[w]])), what);
const words = async (pg, sel) => (await pg.textContent(sel)).replace(/\u00a0/g, ' ');

await check('the timers duplication story shows a, b, c out of order in the verdict, in words and with a tooltip', async () => {
  const pg = await open();
  await pg.click('#timer-Source');
  for (let i = 0; i < 3; i++) await pg.click('#read-Source');
  for (const ch of ['Source->Map', 'Map->Count']) for (let i = 0; i < 3; i++) await pg.click(`[data-channel="${ch}"] .lane-hit`);
  for (const t of ['#timer-Map', '#timer-Count']) await pg.click(t);
  for (const k of ['x', 'r', 'e']) await pg.keyboard.press(k);
  const order = await marks(pg, 'order');
  expect(['a', 'b', 'c'].every((r) => order[r] === 'out-of-order') && ['d', 'e', 'f', 'g', 'h'].every((r) => order[r] === 'in-order'), JSON.stringify(order));
  expect(Object.values(await marks(pg, 'complete')).every((v) => v === 'complete'), 'counted twice, missing nowhere');
  expect((await pg.textContent('#tally-order')).includes('⇅ out of order'), 'the order headline has a symbol and a word');
  expect((await pg.textContent('#tally-order')).includes('5 in order · 3 out of order · 0 on the way'), await pg.textContent('#tally-order'));
  expect((await words(pg, '[data-record="a"] [data-what="order"]')) === '⇅ out of order', 'the row says it in words');
  const tip = await attr(pg, '[data-record="a"] [data-what="order"]', 'title');
  expect(tip.includes('Map (from Source->Map)') && tip.includes('Count (from Map->Count)'), tip);
  expect((await attr(pg, '#tally-order', 'title')).includes('source order'), 'the tally explains in order');
  await pg.click('#btn-lang');
  expect((await pg.textContent('#tally-order')).includes('⇅ 乱序'), await pg.textContent('#tally-order'));
  expect((await words(pg, '[data-record="a"] [data-what="complete"]')) === '✓ 完整', 'Chinese completeness');
  await pg.screenshot({ path: shots + '30-timers-duplicated-out-of-order-zh-1366.png' });
  await pg.context().close();
});

await check('a failure-free aligned run is complete and in order for every record; the ledger fits the panel at 1366', async () => {
  const pg = await open();
  await pg.selectOption('#sel-strategy', 'aligned');
  await pg.keyboard.press('c');
  await pg.keyboard.press('e');
  // On a busy machine the drawing of the end can come a moment after the key.
  await pg.waitForFunction(() => document.querySelector('#btn-step').disabled && !document.querySelector('#ledger [data-verdict="pending"]'), null, { timeout: 10000 }).catch(() => {});
  expect(Object.values(await marks(pg, 'complete')).every((v) => v === 'complete'), JSON.stringify(await marks(pg, 'complete')));
  expect(Object.values(await marks(pg, 'order')).every((v) => v === 'in-order'), JSON.stringify(await marks(pg, 'order')));
  expect((await pg.textContent('#tally-complete')).includes('✓ complete') && (await pg.textContent('#tally-complete')).includes('8 complete · 0 incomplete · 0 on the way'), await pg.textContent('#tally-complete'));
  expect((await pg.textContent('#tally-order')).includes('✓ in order'), await pg.textContent('#tally-order'));
  // The widest ledger: a sink job whose output a replay duplicated, every record out of order, in
  // both languages: nothing is cut off.
  await pg.selectOption('#sel-job', 'line-sink');
  await pg.selectOption('#sel-strategy', 'none');
  for (const k of ['e', 'x', 'r', 'e']) await pg.keyboard.press(k);
  expect(Object.values(await marks(pg, 'order')).every((v) => v === 'out-of-order'), 'a reader sees every record again');
  for (const lang of ['en', 'zh']) {
    const [scroll, client] = await pg.$eval('.ledger-scroll', (e) => [e.scrollWidth, e.clientWidth]);
    expect(scroll <= client, `${lang}: the ledger is ${scroll} px wide in ${client} px`);
    await pg.click('#btn-lang');
  }
  await (await pg.$('#verdict')).screenshot({ path: shots + '31-verdict-order-completeness-1366.png' });
  await pg.context().close();
});

await check('the legend shows only the marks the strategy draws (issue 26): barriers under Flink, tuple trees and acks under Storm, blocks and batches under Spark', async () => {
  const pg = await open({ width: 1366, height: 768 });
  // Storm's and Spark's marks are drawn by their bands' part, which comes with the strategy.
  const legend = async () => {
    await pg.waitForFunction(() => !document.querySelector('#legend .legend-wait'));
    return pg.textContent('#legend');
  };
  await pg.selectOption('#sel-strategy', 'unaligned');
  let t = await legend();
  expect(t.includes('hollow, ⇥u: unaligned') && !t.includes('ring: buffered'), `unaligned: ${t}`);
  await pg.selectOption('#sel-strategy', 'storm-acker');
  t = await legend();
  expect(t.includes('tuple tree') && t.includes('acker') && !t.includes('barrier') && !t.includes('◉ n') && !t.includes('the cut'), `storm: ${t}`);
  await pg.selectOption('#sel-strategy', 'spark-streaming');
  t = await legend();
  expect(t.includes('a block') && t.includes('batch k') && !t.includes('barrier') && !t.includes('◉ n') && !t.includes('cancel'), `spark: ${t}`);
  await pg.click('#btn-lang');
  t = await legend();
  expect(t.includes('块') && t.includes('批次') && !t.includes('屏障'), `spark, Chinese: ${t}`);
  await pg.context().close();
});

await check('Spark\'s band cuts no text short (issue 26): no line ends in an ellipsis, at 1366x768, normal and presenter, English and Chinese', async () => {
  const problems = [];
  const pg = await open({ width: 1366, height: 768 }, { reducedMotion: 'reduce' });
  await pg.selectOption('#sel-job', 'line-sink');
  await pg.selectOption('#sel-strategy', 'spark-streaming');
  for (let i = 0; i < 3; i++) await pg.click('#read-Source');
  await pg.keyboard.press('w');
  for (const lane of ['Source->Map', 'Map->Count']) await pg.click(`[data-channel="${lane}"] .lane-hit`);
  const cut = async (where) => {
    const texts = await pg.$$eval('#spark-band text, #jm-completed, #jm-pending', (t) => t.map((x) => x.textContent));
    for (const x of texts) if (x.trim().endsWith('…')) problems.push(`${where}: "${x}"`);
  };
  await cut('normal');
  problems.push(...(await canvasOverlaps(pg)).map((o) => `normal: ${o}`));
  await pg.click('#btn-lang');
  await cut('normal, Chinese');
  await pg.click('#btn-lang');
  await pg.keyboard.press('p');
  await settled(pg);
  await cut('presenter');
  problems.push(...(await canvasOverlaps(pg)).map((o) => `presenter: ${o}`));
  await pg.context().close();
  expect(problems.length === 0, problems.slice(0, 20).join('\n'));
});

// --- Spark Streaming (issue 10) ---
await check('Spark Streaming: blocks, a batch cut by the driver, stepped through the DAG; the write-ahead log keeps a socket\'s records across a driver crash; the band never overlaps, at 1920x1080 and 1366x768, presenter too', async () => {
  const problems = [];
  for (const [width, height] of [[1920, 1080], [1366, 768]]) {
    const pg = await open({ width, height }, { reducedMotion: 'reduce' });
    await pg.selectOption('#sel-job', 'line-sink');
    await pg.selectOption('#sel-strategy', 'spark-streaming');
    expect(await pg.textContent('#btn-crash-jm').then((t) => t.includes('driver')), 'the JobManager button crashes the driver');
    expect(await pg.isDisabled('#btn-checkpoint'), 'no checkpoint barriers in Spark');
    for (let i = 0; i < 3; i++) await pg.click('#read-Source');
    // The band's drawing comes in its part, fetched when the strategy is chosen.
    await pg.waitForSelector('#spark-band', { timeout: 15000 });
    expect(await pg.$$eval('#spark-band .spark-block.unallocated', (b) => b.length) === 3, 'three blocks wait for their batch');
    await pg.keyboard.press('w');
    const band = () => pg.textContent('#spark-band');
    expect((await band()).includes('batch 1 @4'), `the driver cut batch 1 at step 4: ${await band()}`);
    expect((await band()).includes('running'), 'its job runs');
    for (const lane of ['Source->Map', 'Map->Count', 'Count->Sink']) for (let i = 0; i < 3; i++) await pg.click(`[data-channel="${lane}"] .lane-hit`);
    expect((await band()).includes('batch 1: scheduling delay 0'), `batch 1 completed: ${await band()}`);
    problems.push(...(await canvasOverlaps(pg)).map((o) => `${width}: ${o}`));
    await pg.screenshot({ path: shots + `spark-streaming-${width}.png` });
    // A socket with the log on: the receiver stores what arrives; the driver dies; nothing is lost.
    await pg.click('.more-settings summary');
    await pg.selectOption('#sel-source', 'socket');
    await pg.selectOption('#sel-wal', 'on');
    await pg.click('.more-settings summary');
    expect(await pg.isDisabled('#read-Source'), 'a receiver on a socket reads by itself');
    for (let i = 0; i < 3; i++) await pg.keyboard.press('w');
    expect(await pg.$$eval('#spark-band .spark-block[data-wal="true"]', (b) => b.length) === 4, 'a to d are blocks in the log');
    await pg.keyboard.press('j');
    expect((await pg.textContent('#down-banner')).includes('Spark driver'), 'the banner says the driver died');
    expect((await band()).includes('down'), 'the band shows the driver down');
    expect(await pg.$$eval('#spark-band .spark-block', (b) => b.length) === 4, 'the log kept a to d');
    problems.push(...(await canvasOverlaps(pg)).map((o) => `${width} down: ${o}`));
    expect((await pg.textContent('#storage')).includes('write-ahead log: a b c d'), 'the storage panel lists the log');
    await pg.keyboard.press('r');
    await pg.keyboard.press('e');
    const v = await verdicts(pg);
    expect(Object.values(v).every((x) => x === 'exactly-once'), `every record exactly once: ${JSON.stringify(v)}`);
    await pg.keyboard.press('p');
    await settled(pg);
    problems.push(...(await canvasOverlaps(pg)).map((o) => `${width} presenter: ${o}`));
    const { min, who } = await minCanvasText(pg);
    if (!(min >= 15.95)) problems.push(`${width} presenter: "${who}" is ${min.toFixed(1)} px`);
    await pg.screenshot({ path: shots + `spark-streaming-presenter-${width}.png` });
    await pg.context().close();
  }
  expect(problems.length === 0, problems.slice(0, 20).join('\n'));
});

await check('lesson 13 (micro-batches): the crash, then three reveals: without the log f, g, h lost; with it a to e twice; transactional exactly once; in Chinese too', async () => {
  const pg = await open({ width: 1366, height: 768 });
  const index = await pg.$$eval('#sel-lesson option', (os) => os.findIndex((o) => o.textContent.startsWith('13.')) - 1);
  await pg.selectOption('#sel-lesson', String(index));
  const seen = [];
  for (let guard = 0; guard < 12 && !(await pg.isDisabled('#lesson-next')); guard++) {
    if (await pg.$('#predict')) {
      for (const chip of await pg.$$('.predict-chip')) await chip.click();
      await pg.keyboard.press('PageDown');
      // What a reader sees, else the state: the table's cells, or in a lesson the verdict's chips.
      seen.push(JSON.stringify(await pg.evaluate(() => {
        const rows = [...document.querySelectorAll('#ledger tbody tr')];
        if (rows.length) return rows.map((r) => r.dataset.external || r.dataset.verdict);
        const out = [...document.querySelectorAll('#verdict-records-output li[data-record]')];
        return (out.length ? out : [...document.querySelectorAll('#verdict-records > ul > li[data-record]')]).map((r) => r.dataset.verdict);
      })));
      if (seen.length === 1) {
        const problems = await canvasOverlaps(pg);
        expect(problems.length === 0, problems.join('\n'));
        await pg.screenshot({ path: shots + 'spark-lesson13-reveal-1366.png' });
      }
    }
    if (!(await pg.isDisabled('#lesson-next'))) await pg.keyboard.press('PageDown');
  }
  expect(seen.length === 3, `three reveals: ${seen.length}`);
  const say = await pg.textContent('#lesson-say');
  expect(say.includes('19 steps'), `it ends on latency: ${say}`);
  await pg.click('#btn-lang');
  expect((await pg.textContent('#lesson-say')).includes('延迟'), 'in Chinese');
  await pg.context().close();
});

// ---- Rooms: parts of the page that load when opened ----

const isPart = (url) => /\/(split|chunk)_[^/]*\.wasm$/.test(new URL(url).pathname);
const partsOf = (html) => ((html.match(/<meta name="barrierscope-parts" content="([^"]*)"/) || [])[1] || '').split(' ').filter(Boolean);
const roomIds = async (pg) => pg.$$eval('.rooms-menu button', (bs) => bs.map((b) => b.id.replace(/^open-/, '')));
async function openRoom(pg, id) {
  // In presenter mode the rooms fold into one button.
  if (await pg.$('details.rooms-fold:not([open])')) await pg.click('#rooms-fold');
  await pg.click(`#open-${id}`);
  await pg.waitForSelector(`#room-${id}[data-loaded="true"]`, { timeout: 15000 });
}
// Waits until the service worker controls the page and holds every one of `urls`.
async function cached(pg, urls) {
  await pg.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20000 });
  await pg.waitForFunction(async (urls) => {
    const keys = new Set((await (await caches.open('barrierscope-v1')).keys()).map((r) => r.url));
    return urls.every((u) => keys.has(u));
  }, urls, { timeout: 20000 });
}
// Requests the page itself makes (not its service worker).
function pageRequests(pg) {
  const seen = [];
  pg.on('request', (r) => { if (!r.serviceWorker()) seen.push(r.url()); });
  return seen;
}

await check('the page ships its rooms as separate parts, each named by its hash, and the first visit fetches none of them', async () => {
  const html = await (await fetch(srv.url)).text();
  const parts = partsOf(html);
  expect(parts.some((p) => /^\.\/split_pyflink-[0-9a-f]{1,16}\.wasm$/.test(p)), `the PyFlink part is listed: ${parts.join(' ')}`);
  expect(/<link rel="modulepreload" href="\.\/__wasm_split-[0-9a-f]{1,16}\.js">/.test(html), 'the split loader is hashed and preloaded');
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const pg = await context.newPage();
  const seen = pageRequests(pg);
  pg.on('pageerror', (e) => errors.push(e.message));
  await pg.goto(srv.url);
  await pg.waitForSelector('#app[data-ready="true"]');
  const before = seen.filter(isPart);
  expect(before.length === 0, `before it was interactive the page fetched ${before.join(', ')}`);
  expect(seen.some((u) => /_bg\.wasm$/.test(u)), 'the main module was fetched');
  // Playing keeps the run in the browser's storage: that part loads then, and no room's part.
  const rooms = await roomIds(pg);
  await pg.click('#read-Source');
  await pg.keyboard.press('ArrowRight');
  await pg.keyboard.press('t');
  await pg.waitForTimeout(300);
  const roomParts = seen.filter((u) => rooms.some((id) => new URL(u).pathname.includes(`/split_${id}-`)));
  expect(roomParts.length === 0, `free play fetched ${roomParts.join(', ')}`);
  console.log(`     rooms: ${rooms.join(', ')}; free play fetched ${seen.filter(isPart).map((u) => new URL(u).pathname.slice(1).replace(/-[0-9a-f]{1,16}/, '')).join(', ') || 'no part'} after it was interactive`);
  await context.close();
});

await check('opening each room fetches its part, shows it with the focus on it, and Esc goes back to the same run', async () => {
  const pg = await open();
  const seen = pageRequests(pg);
  for (let i = 0; i < 3; i++) await pg.click('#read-Source');
  const before = await step(pg);
  const ids = await roomIds(pg);
  expect(ids.length >= 1 && ids.includes('pyflink'), `rooms: ${ids}`);
  for (const id of ids) {
    const n = seen.filter(isPart).length;
    const t0 = Date.now();
    await openRoom(pg, id);
    const took = Date.now() - t0;
    const got = seen.filter(isPart).slice(n);
    expect(got.some((u) => new URL(u).pathname.includes(`split_${id}-`)), `${id}: fetched ${got.join(', ') || 'nothing'}`);
    expect(await pg.evaluate((id) => document.getElementById(`room-${id}`).contains(document.activeElement), id), `${id}: the focus is in the room`);
    expect(await pg.isHidden('#canvas'), `${id}: the room covers the run`);
    expect(new RegExp(`^#room=${id}(&|$)`).test(await pg.evaluate(() => location.hash)), `${id}: the link names the room`);
    console.log(`     room ${id}: open in ${took} ms (first time, localhost)`);
    await pg.keyboard.press('Escape');
    await pg.waitForSelector('#canvas');
    expect(await step(pg) === before, `${id}: the run is where it was`);
    expect((await pg.evaluate(() => location.hash)) === '', `${id}: the link no longer names the room`);
    // Opened again, the part is not fetched again.
    const m = seen.filter(isPart).length;
    await openRoom(pg, id);
    expect(seen.filter(isPart).length === m, `${id}: fetched once`);
    await pg.keyboard.press('Escape');
    await pg.waitForSelector('#canvas');
  }
  await pg.context().close();
});

await check('PyFlink room: timers are refused with Flink\'s reason, in both languages; aligned downloads the file the runner writes', async () => {
  const pg = await open();
  await openRoom(pg, 'pyflink');
  expect((await pg.textContent('#pyflink-refused')).includes('per-task timer'), 'timers refused');
  await pg.click('#btn-room-lang');
  expect((await pg.textContent('#pyflink-refused')).includes('定时快照'), 'in Chinese');
  expect((await pg.textContent('#room-pyflink-title')).includes('在真实的 Flink 上运行'), 'the title in Chinese');
  await pg.click('#btn-room-lang');
  // The one way back, as in every room (issue 48; the room's own "← Change the settings" is gone).
  await pg.click('#btn-room-close');
  await pg.selectOption('#sel-job', 'line-sink');
  await pg.selectOption('#sel-strategy', 'aligned');
  for (let i = 0; i < 3; i++) await pg.click('#read-Source');
  await pg.keyboard.press('c');
  await pg.keyboard.press('x');
  await openRoom(pg, 'pyflink');
  const [py] = await Promise.all([pg.waitForEvent('download'), pg.click('#btn-pyflink-download')]);
  const [json] = await Promise.all([pg.waitForEvent('download'), pg.click('#btn-pyflink-scenario')]);
  expect(py.suggestedFilename() === 'barrierscope-line-sink-step-5.py', py.suggestedFilename());
  const pyText = await readFile(await py.path(), 'utf8');
  const scenario = await readFile(await json.path(), 'utf8');
  expect(JSON.parse(scenario).actions.length === 5, `five actions: ${scenario}`);
  const tmp = shots + 'pyflink-scenario.json';
  await writeFile(tmp, scenario);
  const runnerPy = execFileSync(runner(), ['export-pyflink', tmp], { encoding: 'utf8' });
  expect(runnerPy === pyText, 'the page writes the same file as barrierscope export-pyflink');
  expect(pyText.includes('"execution.checkpointing.mode": "EXACTLY_ONCE"'), 'exactly once mode');
  expect((await pg.textContent('#pyflink-command')).includes('barrierscope-line-sink-step-5.py'), 'the command names the file');
  await pg.screenshot({ path: shots + 'room-pyflink-1366.png' });
  await pg.keyboard.press('p');
  await pg.waitForSelector('#app[data-presenter="true"]');
  await pg.setViewportSize({ width: 1920, height: 1080 });
  await pg.screenshot({ path: shots + 'room-pyflink-presenter-1920.png' });
  const small = await pg.$$eval('#room-pyflink p, #room-pyflink li, #room-pyflink button', (es) => es.map((e) => parseFloat(getComputedStyle(e).fontSize)).filter((s) => s < 16));
  expect(small.length === 0, `presenter text under 16 px: ${small}`);
  await pg.context().close();
});

// ---- The space-time room (src/app/rooms/spacetime/) ----
// Every label of the diagram against every other, in screen pixels; and its smallest text.
const diagramLabels = (pg) => pg.evaluate(() => {
  const r = [...document.querySelectorAll('#st-svg text')].filter((t) => t.textContent.trim()).map((t) => [t.textContent, t.getBoundingClientRect()]);
  const bad = [];
  for (let i = 0; i < r.length; i++) for (let j = i + 1; j < r.length; j++) {
    const [a, A] = r[i], [b, B] = r[j];
    if (A.left < B.right - 0.5 && B.left < A.right - 0.5 && A.top < B.bottom - 0.5 && B.top < A.bottom - 0.5) bad.push(`"${a}" over "${b}"`);
  }
  const px = [...document.querySelectorAll('#st-svg text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
  return { n: r.length, bad, min: Math.min(...px) };
});

await check('space-time room: D and its button open it; it steps the run; a cut drawn by keyboard and by clicks gets its verdict and a restore, in both languages; ↓ SVG; presenter text', async () => {
  const pg = await open({ width: 1366, height: 768 });
  const seen = pageRequests(pg);
  for (let i = 0; i < 10; i++) await pg.keyboard.press('ArrowRight');
  expect(!seen.some((u) => u.includes('split_spacetime-')), 'free play does not fetch the diagram');
  await pg.keyboard.press('d');
  await pg.waitForSelector('#room-spacetime[data-loaded="true"] #st-svg', { timeout: 15000 });
  expect(seen.some((u) => u.includes('split_spacetime-')), 'D fetched the diagram\'s part');
  expect((await pg.evaluate(() => location.hash)) === '#room=spacetime', 'the link names the room');
  const lines = await pg.$$eval('.st-hit', (l) => l.length);
  expect(lines === 3, `one line per task: ${lines}`);
  const arrows = await pg.$$eval('.st-arrow', (a) => a.length);
  expect(arrows > 0, 'arrows drawn');
  // The room steps the main run: the diagram follows.
  await pg.click('#st-step');
  expect(await step(pg) === 11, 'Step moved the run');
  await pg.click('#st-back');
  expect(await step(pg) === 10, 'Back moved it back');
  // A cut by keyboard: Source at 0, Map and Count at the playhead: Map received records Source
  // sent after its point, so they are orphans.
  await pg.focus('#st-line-0');
  await pg.keyboard.press('Home');
  await pg.keyboard.press('Enter');
  await pg.keyboard.press('Tab');
  await pg.keyboard.press('End');
  await pg.keyboard.press('Enter');
  await pg.keyboard.press('Tab');
  await pg.keyboard.press('End');
  await pg.keyboard.press('Enter');
  await pg.waitForSelector('#st-verdict[data-consistent]');
  expect(await attr(pg, '#st-verdict', 'data-consistent') === 'false', 'inconsistent');
  const orphans = await pg.$$eval('#st-crossing li.orphan', (l) => l.map((e) => e.dataset.record));
  expect(orphans.length > 0, 'orphans named');
  // Theory: a restore from the cut counts an orphan only record once more, loses one in transit only.
  const rows = await pg.$$eval('.st-ledger tbody tr', (r) => Object.fromEntries(r.map((e) => [e.dataset.record, e.className])));
  const transit = await pg.$$eval('#st-crossing li.in-transit', (l) => l.map((e) => e.dataset.record));
  for (const o of orphans) if (!transit.includes(o)) expect(rows[o].includes('v-duplicated'), `${o}: an orphan only is duplicated (${rows[o]})`);
  for (const t of transit) if (!orphans.includes(t)) expect(rows[t].includes('v-lost'), `${t}: in transit only is lost (${rows[t]})`);
  // Hovering a named arrow lights its record in the list and the diagram.
  await pg.hover(`#st-crossing li[data-record="${orphans[0]}"]`);
  expect(await pg.$(`.st-arrow.lit[data-record="${orphans[0]}"]`), 'hover lights the arrow');
  await pg.click('#btn-room-lang');
  expect((await pg.textContent('#st-verdict')).includes('不一致'), 'the verdict in Chinese');
  await pg.click('#btn-room-lang');
  // A consistent cut by clicks: every line at the same step.
  await pg.click('#st-clear');
  for (let t = 0; t < 3; t++) {
    const b = await (await pg.$(`#st-line-${t}`)).boundingBox();
    await pg.mouse.click(b.x + b.width * 0.55, b.y + b.height / 2);
  }
  expect(await attr(pg, '#st-verdict', 'data-consistent') === 'true', 'one step for every line is consistent');
  await pg.screenshot({ path: shots + 'room-spacetime-1366.png', fullPage: true });
  // Clicking an arrow moves the timeline to its send.
  const sent = await pg.$eval('.st-arrow[data-record] title', (t) => Number(t.textContent.match(/sent at step (\d+)/)[1]));
  await pg.click('.st-arrow[data-record] .st-hit-arrow', { force: true });
  expect(await step(pg) === sent, `the click moved the run to step ${sent} (at ${await step(pg)})`);
  // ↓ SVG: a standalone file with the diagram and its own style.
  const [svg] = await Promise.all([pg.waitForEvent('download'), pg.click('#st-svg-download')]);
  const text = await readFile(await svg.path(), 'utf8');
  expect(svg.suggestedFilename().endsWith('.svg') && text.includes('<svg') && text.includes('st-arrow') && text.includes('<style>'), 'the SVG file');
  // Presenter mode: no diagram text under 16 px at 1366x768.
  await pg.keyboard.press('p');
  await pg.waitForSelector('#app[data-presenter="true"]');
  const { min } = await diagramLabels(pg);
  expect(min >= 16, `presenter diagram text ${min} px`);
  await pg.screenshot({ path: shots + 'room-spacetime-presenter-1366.png', fullPage: true });
  await pg.keyboard.press('Escape');
  await pg.waitForSelector('#canvas');
  // The rooms menu's button opens it too.
  await pg.keyboard.press('p');
  await openRoom(pg, 'spacetime');
  await pg.context().close();
});

// The smallest text of the lesson bar and the room, in screen pixels (HTML and the diagram's SVG).
const lessonRoomText = (pg) => pg.evaluate(() => {
  let min = Infinity;
  let who = '';
  for (const el of document.querySelectorAll('#lesson *, #room-spacetime *')) {
    if (el.closest('svg') && el.tagName !== 'text') continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const r = el.getBoundingClientRect();
    if (!own || r.width === 0 || getComputedStyle(el).visibility === 'hidden') continue;
    const px = el.tagName === 'text' ? parseFloat(getComputedStyle(el).fontSize) * el.getScreenCTM().a : parseFloat(getComputedStyle(el).fontSize);
    if (px < min) { min = px; who = el.textContent.trim().slice(0, 30); }
  }
  return { min, who };
});
// Draws a cut on the diagram by keyboard: each line's point, from the run's start (0) or end (null).
async function drawCut(pg, points) {
  await pg.focus('#st-line-0');
  for (let t = 0; t < points.length; t++) {
    if (t) await pg.keyboard.press('Tab');
    await pg.keyboard.press(points[t] === 0 ? 'Home' : 'End');
    await pg.keyboard.press('Enter');
  }
}
// Walks lesson 14 to its drawing step and draws two cuts, predicting each: Source at the start and
// the others at the end (inconsistent), then every line at the end (consistent).
async function drawACutLesson(pg, { zh = false } = {}) {
  const lesson = String((await pg.$$eval('#sel-lesson option', (os) => os.map((o) => o.textContent))).findIndex((t) => t.startsWith('14.')) - 1);
  await pg.selectOption('#sel-lesson', lesson);
  await pg.click('#lesson-next');
  expect(await attr(pg, '#lesson', 'data-step') === '2', 'step 2');
  await pg.click('#lesson-open-diagram');
  await pg.waitForSelector('#room-spacetime[data-loaded="true"] #st-svg', { timeout: 15000 });
  expect(await pg.isVisible('#lesson-say'), 'the lesson bar stays above the diagram');
  expect(!(await pg.isVisible('#canvas')), 'the canvas gives way to the diagram');
  await pg.click('#lesson-next');
  expect(await attr(pg, '#lesson', 'data-step') === '3', 'step 3: draw');
  expect(await pg.isVisible('#st-svg'), 'the diagram stays open on the drawing step');
  expect(await pg.isDisabled('#lesson-next'), 'Next waits for a consistent cut');
  const why = await attr(pg, '#lesson-next', 'title');
  expect(why.includes(zh ? '一致的切面' : 'consistent cut'), `the disabled Next says why: ${why}`);
  // An inconsistent cut, predicted wrongly: the verdict shows only after the prediction.
  await drawCut(pg, [0, null, null]);
  await pg.waitForSelector('#st-guess-consistent');
  expect(!(await pg.$('#st-verdict[data-consistent]')), 'no verdict before the prediction');
  await pg.click('#st-guess-consistent');
  await pg.waitForSelector('#st-verdict[data-consistent]');
  expect(await attr(pg, '#st-verdict', 'data-consistent') === 'false', 'inconsistent');
  expect(await attr(pg, '#st-lesson', 'data-right') === 'false', 'the wrong prediction is scored wrong');
  expect(await attr(pg, '#lesson-cut-score', 'data-total') === '1' && await attr(pg, '#lesson-cut-score', 'data-found') === 'false', 'one cut checked, none consistent');
  expect(await pg.isDisabled('#lesson-next'), 'still no consistent cut');
  // Every line at the end: consistent, predicted rightly.
  await pg.click('#st-clear');
  await drawCut(pg, [null, null, null]);
  await pg.waitForSelector('#st-guess-consistent');
  await pg.click('#st-guess-consistent');
  await pg.waitForSelector('#st-verdict[data-consistent="true"]');
  expect(await attr(pg, '#st-lesson', 'data-right') === 'true', 'the right prediction is scored right');
  expect(await attr(pg, '#lesson-cut-score', 'data-right') === '1' && await attr(pg, '#lesson-cut-score', 'data-total') === '2', 'one of two right');
  // What the last step says, against the restore the room ran: the records in transit are lost,
  // every other one is exactly once.
  const transit = await pg.$$eval('#st-crossing li.in-transit', (l) => l.map((e) => e.dataset.record));
  expect(transit.length > 0, 'records in transit at the end of the run (d and e never arrived)');
  const rows = await pg.$$eval('.st-ledger tbody tr', (r) => r.map((e) => [e.dataset.record, e.className]));
  for (const [r, cls] of rows) expect(cls.includes(transit.includes(r) ? 'v-lost' : 'v-exactly-once'), `${r}: ${cls}`);
  expect(!(await pg.isDisabled('#lesson-next')), 'a consistent cut lets the lesson go on');
}

await check('lesson 14, Draw a consistent cut, in English: predict, check, until a cut is consistent; the last step goes back to the run', async () => {
  const pg = await open({ width: 1366, height: 768 });
  await drawACutLesson(pg);
  await pg.screenshot({ path: shots + 'lesson14-draw-a-cut-1366.png', fullPage: true });
  await pg.click('#lesson-next');
  expect(await attr(pg, '#lesson', 'data-step') === '4', 'step 4');
  await pg.waitForSelector('#canvas');
  expect(!(await pg.$('#room-spacetime')), 'a step without the diagram closes it');
  expect((await pg.textContent('#lesson-say')).includes('A consistent cut has no'), 'the conclusion');
  await pg.context().close();
});

await check('lesson 14 in Chinese presenter mode at 1366x768: the lesson and the diagram, no text under 16 px', async () => {
  const pg = await open({ width: 1366, height: 768 });
  await pg.click('#btn-lang');
  await pg.keyboard.press('p');
  await pg.waitForSelector('#app[data-presenter="true"][data-lang="zh"]');
  await drawACutLesson(pg, { zh: true });
  expect((await pg.textContent('#st-lesson')).includes('对了'), 'the score in Chinese');
  expect((await pg.textContent('#lesson-cut-score')).includes('一致的切面'), 'the lesson bar in Chinese');
  const { min, who } = await lessonRoomText(pg);
  expect(min >= 15.95, `smallest text "${who}" is ${min.toFixed(1)} px`);
  console.log(`     (lesson 14 in presenter mode: smallest text ${min.toFixed(1)} px at 1366x768)`);
  await pg.screenshot({ path: shots + 'lesson14-draw-a-cut-zh-presenter-1366.png' });
  await pg.screenshot({ path: shots + 'lesson14-draw-a-cut-zh-presenter-1366-full.png', fullPage: true });
  await pg.context().close();
});

await check('lessons 2, 3 and 4 show their cut on the space-time diagram: broken by the timers, consistent after the barrier', async () => {
  const pg = await open({ width: 1366, height: 768 });
  for (const [lesson, words] of [['1', '0 ⊕ orphan, 3 ✗ in transit'], ['2', '3 ⊕ orphan, 0 ✗ in transit'], ['3', '0 ⊕ orphan, 0 ✗ in transit']]) {
    await pg.selectOption('#sel-lesson', lesson);
    for (let i = 0; i < 10 && !(await pg.$('#lesson-open-diagram')); i++) await pg.click('#lesson-next');
    await pg.click('#lesson-open-diagram');
    await pg.waitForSelector('#room-spacetime[data-loaded="true"] #st-current', { timeout: 15000 });
    const text = await pg.textContent('#st-current');
    expect(text.includes(words), `lesson ${+lesson + 1}: ${text}`);
    if (lesson === '3') await pg.screenshot({ path: shots + 'lesson4-cut-on-the-diagram-1366.png', fullPage: true });
    await pg.click('#lesson-next');
    await pg.waitForSelector('#canvas');
    expect(!(await pg.$('#room-spacetime')), `lesson ${+lesson + 1}: the next step goes back to the run`);
  }
  await pg.context().close();
});

await check('space-time room: hovering an arrow shows its record as the hidden ledger and narration tell it', async () => {
  const pg = await open({ width: 1366, height: 768 });
  for (let i = 0; i < 10; i++) await pg.keyboard.press('ArrowRight');
  await pg.keyboard.press('d');
  await pg.waitForSelector('#room-spacetime[data-loaded="true"] #st-svg', { timeout: 15000 });
  expect(await pg.$('#st-record.hint'), 'a hint before any hover');
  const records = await pg.$$eval('.st-arrow[data-record]', (a) => [...new Set(a.map((e) => e.dataset.record))]);
  expect(records.length >= 2, `records drawn: ${records}`);
  for (const r of records.slice(0, 3)) {
    await pg.hover(`.st-arrow[data-record="${r}"] .st-hit-arrow`, { force: true });
    await pg.waitForSelector(`#st-record[data-record="${r}"]`);
    // The ledger and the narration are under the room, hidden but on the page: the card says what they say.
    const ledger = await pg.$eval(`#ledger tbody tr[data-record="${r}"]`, (e) => e.dataset.verdict);
    expect(await attr(pg, '#st-record', 'data-verdict') === ledger, `${r}: the card's verdict is the ledger's (${ledger})`);
    const narration = await pg.$eval('#narration', (e) => e.textContent);
    const lines = await pg.$$eval('#st-record li', (l) => l.map((e) => [e.dataset.step, e.textContent.replace(/^step \d+: /, '')]));
    expect(lines.length > 0, `${r}: its steps`);
    for (const [s, text] of lines) for (const part of text.split(' · ')) expect(narration.includes(part), `${r} step ${s}: "${part}" is the narration's`);
    const lit = await pg.$$eval('.st-arrow.lit', (a) => [...new Set(a.map((e) => e.dataset.record))]);
    expect(lit.length === 1 && lit[0] === r, `the diagram lights ${r} only: ${lit}`);
  }
  await pg.screenshot({ path: shots + 'room-spacetime-hover-1366.png' });
  await pg.context().close();
});

await check('space-time room: Compare with draws the same moves under another strategy, aligned by what happened; ≠ only where it took no step; a cut on the second diagram', async () => {
  const pg = await open({ width: 1366, height: 768 });
  await pg.selectOption('#sel-strategy', 'aligned');
  for (let i = 0; i < 3; i++) await pg.click('#read-Source');
  await pg.keyboard.press('c');
  for (let i = 0; i < 10; i++) await pg.keyboard.press('ArrowRight');
  await pg.keyboard.press('d');
  await pg.waitForSelector('#room-spacetime[data-loaded="true"] #st-svg', { timeout: 15000 });
  expect(!(await pg.$('#st-compared')), 'nothing compared at first');
  await pg.selectOption('#st-compare', 'timers');
  await pg.waitForSelector('#st-compared #st2-svg');
  expect(await pg.$$eval('#st2-svg .st-hit', (l) => l.length) === 3, 'one line per task on the second diagram');
  const ne = await pg.$$eval('#st2-svg .st-ne-line', (l) => l.map((e) => Number(e.dataset.step)));
  expect(ne.includes(4), `≠ at the checkpoint (step 4), which timers refuse: ${ne}`);
  expect(Number(await attr(pg, '#st-compared', 'data-differs')) === ne.length, 'the count says as many ≠ as drawn');
  // Aligned by what happened: every record the second run received, the first received at the same step.
  const receipts = (sel) => pg.$$eval(`${sel} .st-arrow[data-record]`, (a) => a.map((e) => [e.dataset.record, (e.querySelector('title').textContent.match(/received at step (\d+)/) || [])[1]]).filter(([, r]) => r).map(([a, r]) => `${a}@${r}`));
  const [one, two] = [await receipts('#st-svg'), await receipts('#st2-svg')];
  expect(two.length > 0, 'the second run received records');
  for (const r of two) expect(one.includes(r), `${r} in the second run is the first run's receipt too (${one})`);
  // No ≠ where both took a step: every receipt step of the second run is unmarked.
  for (const r of two) expect(!ne.includes(Number(r.split('@')[1])), `${r}: no ≠ on a step both took`);
  // A cut on the second diagram: Source at its start, the others at the end: orphans, from its own run.
  await pg.focus('#st2-line-0');
  for (const [t, k] of [[0, 'Home'], [1, 'End'], [2, 'End']]) {
    if (t) await pg.keyboard.press('Tab');
    await pg.keyboard.press(k);
    await pg.keyboard.press('Enter');
  }
  await pg.waitForSelector('#st2-verdict[data-consistent]');
  expect(await attr(pg, '#st2-verdict', 'data-consistent') === 'false', 'the second diagram\'s cut is judged');
  expect((await pg.$$('#st2-crossing li.orphan')).length > 0, 'its orphans named');
  // The list gives the steps the second diagram draws: each named arrow's receipt is one drawn there.
  const named = await pg.$$eval('#st2-crossing li', (l) => l.map((e) => [e.dataset.record, (e.textContent.match(/received at step (\d+)/) || [])[1]]).filter(([, r]) => r).map(([a, r]) => `${a}@${r}`));
  for (const r of named) expect(two.includes(r), `${r}: the list's step is the diagram's`);
  expect(!(await pg.$('#st-verdict[data-consistent]')), 'the first diagram\'s cut is its own (not set)');
  await pg.screenshot({ path: shots + 'room-spacetime-compare-1366.png', fullPage: true });
  await pg.click('#btn-room-lang');
  expect((await pg.textContent('#st-compared h3')).includes('对齐'), 'in Chinese');
  await pg.keyboard.press('p');
  await pg.waitForSelector('#app[data-presenter="true"]');
  const small = await pg.evaluate(() => Math.min(...[...document.querySelectorAll('#st2-svg text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)));
  expect(small >= 16, `presenter: the second diagram's text ${small} px`);
  const words = await pg.evaluate(() => Math.min(...['#st-compare', '.st-compare', '#st-compared h3', '#st2-ne', '#st2-clear'].map((s) => parseFloat(getComputedStyle(document.querySelector(s)).fontSize))));
  expect(words >= 16, `presenter: the compare menu and notes ${words} px`);
  await pg.screenshot({ path: shots + 'room-spacetime-compare-zh-presenter-1366.png', fullPage: true });
  await pg.context().close();
});

await check('space-time room: no two labels of the diagram overlap at 1920x1080 and 1366x768, crowded with 300 records in flight, presenter too', async () => {
  const problems = [];
  for (const [w, h] of [[1920, 1080], [1366, 768]]) {
    for (const presenter of [false, true]) {
      const pg = await open({ width: w, height: h }, { reducedMotion: 'reduce' });
      await generated(pg, 'keyed-shuffle', 150);
      await pg.selectOption('#sel-strategy', 'aligned');
      // Both sources read in turn, so records from each are in flight at once.
      const sources = await pg.$$eval('[id^="read-"]', (els) => els.map((e) => e.id));
      expect(sources.length === 2, `two sources: ${sources}`);
      for (let i = 0; i < 150; i++) for (const s of sources) await clickN(pg, idSel(s), 1);
      await keyN(pg, 'c');
      for (let i = 0; i < 30; i++) await pg.keyboard.press('w');
      if (presenter) await pg.keyboard.press('p');
      await pg.keyboard.press('d');
      await pg.waitForSelector('#st-svg', { timeout: 15000 });
      const lines = await pg.$$eval('.st-hit', (l) => l.map((e) => e.getAttribute('aria-label') || e.id));
      const from = await pg.$$eval('.st-arrow.in-flight[data-record]', (a) => [...new Set(a.map((e) => e.dataset.from))]);
      const fromSources = from.filter((t) => /Source/.test(lines[+t] || ''));
      expect(fromSources.length === 2, `records in flight from both sources: from lines ${from.map((t) => lines[+t])}`);
      for (const zoom of [0, 1, 2]) {
        if (zoom) await pg.click('#st-zoom-in');
        const { n, bad, min } = await diagramLabels(pg);
        problems.push(...bad.slice(0, 3).map((b) => `${w}x${h}${presenter ? ' presenter' : ''} zoom ${zoom}: ${b}`));
        if (min < 16) problems.push(`${w}x${h}${presenter ? ' presenter' : ''}: text ${min} px`);
        expect(n > 5, 'labels drawn');
      }
      if (!presenter) await pg.screenshot({ path: shots + `room-spacetime-crowded-${w}.png` });
      await pg.context().close();
    }
  }
  expect(problems.length === 0, problems.slice(0, 30).join('\n'));
});

await check('a room whose part cannot be fetched says so with Retry, keeps the run, and Retry opens it', async () => {
  // The first visit, before the service worker has cached anything.
  const pg = await open({ width: 1366, height: 768 }, { serviceWorkers: 'block' });
  const roomErrors = [];
  pg.removeAllListeners('console');
  pg.on('console', (m) => { if (m.type() === 'error') roomErrors.push(m.text()); });
  for (let i = 0; i < 2; i++) await pg.click('#read-Source');
  await pg.route(/split_pyflink-[0-9a-f]+\.wasm$/, (r) => r.abort('internetdisconnected'));
  await pg.click('#open-pyflink');
  await pg.waitForSelector('#retry-pyflink', { timeout: 15000 });
  expect((await pg.textContent('#room-pyflink [role="alert"]')).includes('could not be loaded'), 'the message');
  expect(await pg.evaluate(() => document.activeElement && document.activeElement.id) === 'retry-pyflink', 'the focus is on Retry');
  await pg.click('#btn-room-lang');
  expect((await pg.textContent('#room-pyflink [role="alert"]')).includes('没能加载'), 'in Chinese');
  await pg.click('#btn-room-lang');
  await pg.screenshot({ path: shots + 'room-failed-1366.png' });
  await pg.click('#retry-pyflink');
  await pg.waitForSelector('#retry-pyflink', { timeout: 15000 });
  await pg.unroute(/split_pyflink-[0-9a-f]+\.wasm$/);
  await pg.click('#retry-pyflink');
  await pg.waitForSelector('#room-pyflink[data-loaded="true"]', { timeout: 15000 });
  await pg.keyboard.press('Escape');
  expect(await step(pg) === 2, 'the run is kept');
  expect(roomErrors.every((e) => /split|fetch|Failed|net::/i.test(e)), `only the failed fetch was reported: ${roomErrors.join('\n')}`);
  await pg.context().close();
});

await check('the narration\'s words come in a part of their own once the page is interactive; while it cannot be fetched a step reads "…", and a later step fills every line in', async () => {
  // The first visit, before the service worker has cached anything, with the words' part refused.
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, serviceWorkers: 'block' });
  const pg = await context.newPage();
  pg.on('pageerror', (e) => errors.push(e.message));
  const seen = pageRequests(pg);
  const words = /split_words-[0-9a-f]+\.wasm$/;
  await pg.route(words, (r) => r.abort('internetdisconnected'));
  await pg.goto(srv.url);
  await pg.waitForSelector('#app[data-ready="true"]', { timeout: 15000 });
  await pg.waitForFunction(() => document.querySelector('#narration .hint') !== null, null, { timeout: 15000 });
  // Asked for once the page was interactive, without a step.
  const t0 = Date.now();
  while (!seen.some((u) => words.test(u)) && Date.now() - t0 < 10000) await pg.waitForTimeout(100);
  expect(seen.some((u) => words.test(u)), `the page asked for the words after it was interactive: ${seen.filter(isPart).join(', ')}`);
  await pg.click('#read-Source');
  await pg.waitForSelector('#narration li[data-step="1"]', { timeout: 15000 });
  const waiting = (await pg.textContent('#narration li[data-step="1"] ul')).trim();
  expect(waiting === '…', `a step reads "…" while the words cannot come: ${waiting}`);
  await pg.unroute(words);
  await pg.click('#read-Source');
  await pg.waitForFunction(() => /read .* at offset 0 and sent it on/.test(document.querySelector('#narration li[data-step="1"] ul').textContent), null, { timeout: 15000 });
  expect(/at offset 1 and sent it on/.test(await pg.textContent('#narration li[data-step="2"] ul')), 'the step after says its words');
  await context.close();
});

await check('the batch room and the side-by-side room, at 1366x768 and in presenter mode at 1920x1080', async () => {
  const pg = await open();
  await openRoom(pg, 'batch');
  await pg.screenshot({ path: shots + 'room-batch-1366.png' });
  await pg.keyboard.press('Escape');
  await openRoom(pg, 'compare');
  await pg.screenshot({ path: shots + 'room-compare-1366.png' });
  await pg.keyboard.press('Escape');
  await pg.setViewportSize({ width: 1920, height: 1080 });
  await pg.keyboard.press('p');
  await pg.waitForSelector('#app[data-presenter="true"]');
  await openRoom(pg, 'batch');
  await pg.screenshot({ path: shots + 'room-batch-presenter-1920.png' });
  await pg.keyboard.press('Escape');
  await openRoom(pg, 'compare');
  await pg.screenshot({ path: shots + 'room-compare-presenter-1920.png' });
  await pg.context().close();
});

await check('side by side on the built page: at the end every figure of the cost table equals barrierscope compare --json', async () => {
  const pg = await open({ width: 1920, height: 1080 });
  await openRoom(pg, 'compare');
  await pg.click('#cmp-end');
  await pg.waitForSelector('#cmp-room[data-finished="true"]');
  const cells = await pg.$$eval('#cmp-costs td[data-figure]', (tds) => tds.map((td) => [Number(td.dataset.run), td.dataset.figure, td.dataset.value]));
  const json = JSON.parse(execFileSync(runner(), ['compare', new URL('../scenarios/compare/three-ways.json', import.meta.url).pathname, '--json'], { encoding: 'utf8' }));
  const at = (obj, ptr) => ptr.split('/').slice(1).reduce((o, k) => (o == null ? undefined : o[k]), obj);
  let compared = 0;
  const wrong = [];
  for (const [run, figure, value] of cells) {
    const want = at(json.runs[run].costs, figure);
    if (typeof want === 'number' || typeof want === 'string') {
      compared++;
      if (String(want) !== value) wrong.push(`run ${run} ${figure}: page ${value}, runner ${want}`);
    } else if (Array.isArray(want)) {
      compared++;
      if (String(want.length) !== value) wrong.push(`run ${run} ${figure}: page ${value}, runner ${want.length} entries`);
    }
  }
  expect(wrong.length === 0, wrong.slice(0, 8).join('\n'));
  expect(compared >= 45, `only ${compared} figures compared`);
  console.log(`     ${compared} figures of ${cells.length} cells equal the runner's`);
  await pg.context().close();
});

await check('batch on the built page: a batch scenario file imported and run to the end costs what barrierscope batch --json says', async () => {
  const pg = await open();
  await openRoom(pg, 'batch');
  const file = new URL('../scenarios/batch/spark-p10-lost.json', import.meta.url).pathname;
  await pg.setInputFiles('#batch-import', file);
  await pg.waitForFunction(() => Number(document.querySelector('#batch-room').dataset.steps) > 0);
  // An imported run opens where it was saved: for a scenario file, at its end.
  if (!(await pg.isDisabled('#batch-end'))) await pg.click('#batch-end');
  await pg.waitForFunction(() => document.querySelector('#batch-room').dataset.step === document.querySelector('#batch-room').dataset.steps);
  const json = JSON.parse(execFileSync(runner(), ['batch', file, '--json'], { encoding: 'utf8' }));
  const cell = async (id) => Number(await pg.textContent(`#${id} td`));
  for (const [id, key] of [['batch-cost-tasks', 'task_runs'], ['batch-cost-computed', 'partitions_computed'],
    ['batch-cost-recomputed', 'partitions_recomputed'], ['batch-cost-records', 'records_recomputed']]) {
    const page = await cell(id);
    expect(page === json.cost[key], `${key}: page ${page}, runner ${json.cost[key]}`);
  }
  expect((await attr(pg, '#batch-headline', 'data-exactly-once')) === String(json.exactly_once), 'the verdict');
  await pg.screenshot({ path: shots + 'room-batch-recomputed-1366.png' });
  await pg.context().close();
});

await check('a link with #room=pyflink opens the room over the last run', async () => {
  // No service worker: once it controls the page it serves the sharing part from its cache, and
  // the route below would never see the request it holds back.
  const pg = await open(undefined, { serviceWorkers: 'block' });
  await pg.selectOption('#sel-strategy', 'aligned');
  await pg.click('#read-Source');
  // The run is stored once the sharing part is there (fetched on the first change): under load
  // that takes more than the 100 ms this waited before.
  await pg.waitForFunction(() => (localStorage.getItem('barrierscope.run') || '').includes('"aligned"'), null, { timeout: 15000 });
  // On a slow network the room's part can come before the sharing part that opens the stored run
  // (CI saw it once): the room waits for the run, and never draws the default run first.
  // The sharing part is held back until the room's part has come and the room has been looked
  // at (a gate, not a fixed delay: under CI's load a fixed 1.5 s once let it through first).
  let release;
  const gate = new Promise((ok) => { release = ok; });
  await pg.route(/split_sharing-[0-9a-f]+\.wasm$/, async (r) => { await gate; await r.continue(); });
  await pg.goto(srv.url + '#room=pyflink');
  const roomPart = pg.waitForResponse(/split_pyflink-[0-9a-f]+\.wasm$/, { timeout: 15000 });
  await pg.reload();
  await roomPart;
  await pg.waitForTimeout(400);
  const early = await pg.$eval('#room-pyflink', (e) => ({ loaded: e.dataset.loaded, refused: !!e.querySelector('.room-body'), ready: document.querySelector('#app').dataset.ready }));
  release();
  expect(early.ready === 'false' && early.loaded === 'false' && !early.refused, `while the stored run is still to open, the room says Loading… ${JSON.stringify(early)}`);
  await pg.waitForSelector('#room-pyflink[data-loaded="true"]', { timeout: 15000 });
  expect(await pg.isVisible('#btn-pyflink-download'), 'the stored aligned run is exported');
  await pg.context().close();
});

// ---- The ⋔ Every schedule room (issues 14 and 30) ----

const XP_PRESETS = ['timers-abc', 'aligned-abc', 'aligned-bound-one', 'tracker-two', 'unaligned-two', 'sink-append', 'line-five'];
await check('explorer room: every preset explores in slices of at most a frame, with the table and the shares, in both languages', async () => {
  const pg = await open({ width: 1920, height: 1080 });
  await openRoom(pg, 'explorer');
  // The room warms its code with a small search of its own when it opens (a learner's search
  // started meanwhile drops it, as the Cancel check's does); this one waits for it, as a learner
  // reading the page would.
  await pg.waitForSelector('#xp-room[data-warm-up]', { timeout: 15000 });
  const figures = [];
  for (const id of XP_PRESETS) {
    await pg.selectOption('#xp-study', id);
    await pg.click('#xp-explore');
    await pg.waitForSelector('#xp-schedules[data-state="done"]', { timeout: 30000 });
    const d = await pg.$eval('#xp-summary', (e) => ({ ...e.dataset }));
    figures.push(`${id}: ${d.states} states, ${d.schedules} schedules, ${d.busyMs} ms over ${d.frames} frames (longest ${d.longestMs} ms; ${d.overBudget} over 10 ms; longest step ${d.longestStepMs} ms)`);
    const row = await pg.$eval('#xp-row-state', (e) => ({ ...e.dataset }));
    // The shares: against theory (aligned and unaligned keep state exactly once on every schedule; the tracker never loses).
    if (id === 'aligned-bound-one') expect(d.states === '110' && d.schedules === '468', `${id}: the runner's 110 states and 468 schedules (aligned-abc's 8113 without the bound) ${JSON.stringify(d)}`);
    if (id === 'aligned-abc' || id === 'aligned-bound-one' || id === 'unaligned-two' || id === 'sink-append') expect(row.exactlyOnce === d.schedules && row.lost === '0' && row.duplicated === '0', `${id}: every schedule exactly once ${JSON.stringify(row)}`);
    if (id === 'tracker-two') expect(row.lost === '0' && row.duplicated !== '0', `${id}: duplicates, never loses`);
    if (id === 'timers-abc') expect(d.states === '1835' && d.schedules === '194377' && row.lost !== '0' && row.duplicated !== '0', `${id}: the runner's 1835 states ${JSON.stringify(d)}`);
    // Completeness and order: theory says aligned and unaligned keep every record complete and in order; timers lose paths and reorder.
    const hist = await pg.$eval('#xp-history', (e) => ({ ...e.dataset }));
    if (id === 'aligned-abc' || id === 'unaligned-two') expect(hist.incomplete === '0' && hist.outOfOrder === '0', `${id}: complete and in order ${JSON.stringify(hist)}`);
    if (id === 'timers-abc') expect(hist.incomplete !== '0' && hist.outOfOrder !== '0' && await pg.$('#xp-cx-incomplete') && await pg.$('#xp-cx-out-of-order'), `${id}: incomplete and out of order, with their cards`);
    if (id === 'tracker-two') expect(hist.incomplete === '0' && hist.outOfOrder !== '0', `${id}: replays reorder, no path lost`);
    if (id === 'sink-append') expect(Number((await pg.$eval('#xp-row-output', (e) => e.dataset.duplicated))) > 0, 'the append sink duplicates in the output');
  }
  console.log('     in-page times: ' + figures.join('; '));
  console.log(`     the room's warm-up, before the first search: ${await pg.getAttribute('#xp-room', 'data-warm-up')}`);
  await pg.selectOption('#xp-study', 'timers-abc');
  await pg.click('#xp-explore');
  await pg.waitForSelector('#xp-schedules[data-state="done"]');
  const warm = await pg.$eval('#xp-summary', (e) => ({ ...e.dataset }));
  console.log(`     timers-abc again (warm): ${warm.busyMs} ms over ${warm.frames} frames (longest ${warm.longestMs} ms; ${warm.overBudget} over 10 ms; longest step ${warm.longestStepMs} ms)`);
  const why = await pg.textContent('#xp-cx-state-lost .cx-why');
  expect(why.includes('a, b and c are lost') && why.includes('in transit'), `the explanation: ${why}`);
  const path = await pg.textContent('#xp-cx-incomplete .cx-why');
  expect(path.includes('incomplete') && path.includes('Source->Map'), `the lost path, explained: ${path}`);
  const order = await pg.textContent('#xp-cx-out-of-order .cx-why');
  expect(order.includes('Out of order at Map'), `the reordered record, explained: ${order}`);
  await pg.screenshot({ path: shots + 'room-explorer-1920.png' });
  await pg.click('#btn-room-lang');
  expect((await pg.textContent('#xp-cx-state-lost .cx-why')).includes('丢失'), 'the explanation in Chinese');
  expect((await pg.textContent('#xp-table caption')).includes('所有调度的结局'), 'the table in Chinese');
  expect((await pg.textContent('#xp-history caption')).includes('完整且有序'), 'completeness and order in Chinese');
  expect((await pg.textContent('#xp-cx-incomplete .cx-why')).includes('不完整') && (await pg.textContent('#xp-cx-out-of-order .cx-why')).includes('乱序'), 'their explanations in Chinese');
  await pg.click('#btn-room-lang');
  // The main run as it stands (8 records) is refused, with the reason.
  await pg.selectOption('#xp-study', 'main');
  expect((await pg.textContent('#xp-refused')).includes('8 records'), 'the main run is refused with why');
  expect(await pg.isDisabled('#xp-explore'), 'and Explore is disabled');
  await pg.context().close();
});

await check('explorer room: Cancel stops a search of a second, and a click answers in under 50 ms while it runs', async () => {
  const pg = await open({ width: 1366, height: 768 });
  await openRoom(pg, 'explorer');
  await pg.selectOption('#xp-study', 'timers-two-big');
  await pg.click('#xp-explore');
  await pg.waitForSelector('#xp-schedules[data-state="running"]');
  // A click on the tab bar during the search: the time from the input event to its handler,
  // while the search runs.
  const delays = [];
  while (delays.length < 8 && await pg.$('#xp-schedules[data-state="running"]')) {
    await pg.waitForTimeout(40);
    delays.push(await pg.evaluate(() => new Promise((res) => {
      const el = document.querySelector('#xp-tab-schedules');
      const t0 = performance.now();
      el.addEventListener('click', () => res(performance.now() - t0), { once: true });
      setTimeout(() => el.click(), 0);
    })));
  }
  const max = Math.max(...delays);
  await pg.waitForSelector('#xp-schedules[data-state="done"]', { timeout: 60000 });
  const d = await pg.$eval('#xp-summary', (e) => ({ ...e.dataset }));
  console.log(`     during the search: input answered in at most ${max.toFixed(1)} ms (${delays.map((x) => x.toFixed(1)).join(', ')}); longest slice ${d.longestMs} ms, ${d.overBudget} of ${d.frames} slices over 10 ms, longest step ${d.longestStepMs} ms`);
  expect(delays.length >= 5, `clicks sampled while it ran: ${delays.length}`);
  expect(max < 50, `input waited ${max} ms`);
  // Cancel: a second search, stopped.
  await pg.click('#xp-explore');
  await pg.waitForSelector('#xp-schedules[data-state="running"]');
  await pg.waitForTimeout(100);
  await pg.click('#xp-cancel');
  await pg.waitForSelector('#xp-schedules[data-state="cancelled"]');
  const states = await pg.$eval('#xp-progress', (e) => e.dataset.states);
  await pg.waitForTimeout(300);
  expect(states === await pg.$eval('#xp-progress', (e) => e.dataset.states), 'the search stopped');
  expect(Number(states) < Number(d.states), `cancelled at ${states} of ${d.states} states`);
  expect((await pg.textContent('#xp-progress')).includes('Cancelled'), 'it says Cancelled');
  console.log(`     timers-two-big: ${d.states} states, ${d.busyMs} ms of computing over ${d.frames} frames, ${d.wallMs} ms in all`);
  await pg.context().close();
});

await check('explorer room: a counterexample opens on the canvas with its decisive steps marked, and steps', async () => {
  const pg = await open({ width: 1366, height: 768 });
  await openRoom(pg, 'explorer');
  await pg.selectOption('#xp-study', 'timers-abc');
  await pg.click('#xp-explore');
  await pg.waitForSelector('#xp-schedules[data-state="done"]');
  await pg.click('#xp-cx-state-lost-open');
  await pg.waitForSelector('#decisive-note', { timeout: 15000 });
  expect(await pg.isVisible('#canvas'), 'the canvas is back');
  expect((await pg.evaluate(() => location.hash)) === '', 'the room is closed');
  const marks = await pg.$$eval('.decisive-mark', (b) => b.map((x) => x.dataset.step));
  expect(marks.join(',') === '1,2,3,4,5,6', `decisive steps ${marks}`);
  expect((await pg.$eval('#app', (e) => e.dataset.steps)) === '6' && (await pg.$eval('#app', (e) => e.dataset.step)) === '0', 'the six steps, paused at the start');
  for (let i = 0; i < 6; i++) await pg.click('#btn-step');
  expect((await pg.$eval('#app', (e) => e.dataset.step)) === '6', 'stepped to the end');
  const lost = await pg.$$eval('#verdict tr[data-verdict="lost"]', (rs) => rs.map((r) => r.dataset.record).join(','));
  expect(lost === 'a,b,c', `the ledger says a, b, c lost: ${lost}`);
  await pg.click('.decisive-mark[data-step="4"]');
  expect((await pg.$eval('#app', (e) => e.dataset.step)) === '4', 'a ◆ seeks to its step');
  await pg.screenshot({ path: shots + 'explorer-counterexample-1366.png' });
  await pg.click('#btn-lang');
  expect((await pg.textContent('#decisive-note')).includes('丢失'), 'the explanation in Chinese');
  await pg.click('#btn-lang');
  await pg.keyboard.press('p');
  await pg.waitForSelector('#app[data-presenter="true"]');
  await pg.screenshot({ path: shots + 'explorer-counterexample-presenter-1366.png' });
  await pg.keyboard.press('Escape');
  await pg.click('#btn-reset');
  await pg.selectOption('#sel-strategy', 'aligned');
  expect(!(await pg.$('#decisive-note')), 'another run drops the marks');
  await pg.context().close();
});

await check('explorer room: the handler lab classifies the presets as theory says, and a composed handler, in both languages', async () => {
  const pg = await open({ width: 1366, height: 768 });
  await openRoom(pg, 'explorer');
  await pg.click('#xp-tab-lab');
  const want = { aligned: 'exactly once', tracker: 'at least once', unaligned: 'exactly once', timers: 'none of these' };
  for (const [id, g] of Object.entries(want)) {
    await pg.click('#lab-preset-' + id);
    const t0 = Date.now();
    await pg.click('#lab-classify');
    await pg.waitForSelector('#lab-verdict', { timeout: 60000 });
    const got = await pg.$eval('#lab-verdict', (e) => e.dataset.guarantee);
    console.log(`     lab ${id}: ${got} in ${Date.now() - t0} ms`);
    expect(got === g, `${id}: ${got}`);
    expect((await pg.textContent('#lab-agrees')).includes('as theory says'), `${id}: agrees`);
  }
  // Timers: none of these, with both counterexamples explained.
  expect(await pg.$('#lab-verdict .cx-card.lost') && await pg.$('#lab-verdict .cx-card.duplicated'), 'both counterexamples');
  // A combination that makes no sense says why and can't be classified.
  await pg.click('#lab-preset-aligned');
  await pg.selectOption('#lab-last', 'forward');
  expect((await pg.textContent('#lab-refused')).includes('Forward only'), 'the reason');
  expect(await pg.isDisabled('#lab-classify'), 'Classify disabled');
  // Drop after the barrier: at most once.
  await pg.selectOption('#lab-last', 'snapshot');
  await pg.selectOption('#lab-after', 'drop');
  await pg.click('#lab-classify');
  await pg.waitForSelector('#lab-verdict', { timeout: 60000 });
  expect((await pg.$eval('#lab-verdict', (e) => e.dataset.guarantee)) === 'at most once', 'drop: at most once');
  await pg.screenshot({ path: shots + 'room-explorer-lab-1366.png' });
  await pg.click('#btn-room-lang');
  expect((await pg.textContent('.lab-guarantee')).includes('最多一次'), 'in Chinese');
  await pg.keyboard.press('p');
  await pg.waitForSelector('#app[data-presenter="true"]');
  await pg.screenshot({ path: shots + 'room-explorer-lab-presenter-1366.png' });
  const small = await pg.$$eval('#xp-room p, #xp-room td, #xp-room th, #xp-room button, #xp-room select, #xp-room span', (es) => es.filter((e) => e.offsetParent).map((e) => parseFloat(getComputedStyle(e).fontSize)).filter((s) => s < 16));
  expect(small.length === 0, `presenter text under 16 px: ${small.slice(0, 5)}`);
  await pg.context().close();
});

await check('explorer room: a lab handler used on the canvas is named by the strategy menu and the narration, and its link reopens it', async () => {
  const pg = await open({ width: 1366, height: 768 });
  await openRoom(pg, 'explorer');
  await pg.click('#xp-tab-lab');
  await pg.click('#lab-preset-tracker');
  await pg.click('#lab-classify');
  await pg.waitForSelector('#lab-verdict', { timeout: 60000 });
  await pg.click('#lab-use');
  await pg.waitForSelector('#canvas', { timeout: 15000 });
  expect((await pg.$eval('#sel-strategy', (e) => e.value)) === 'lab', 'the menu shows the lab handler');
  const name = await pg.$eval('#sel-strategy', (e) => e.selectedOptions[0].textContent);
  expect(name.includes('Lab handler') && name.includes('process what comes after a barrier') && name.includes('at least once'), `the menu names it: ${name}`);
  for (let i = 0; i < 3; i++) await pg.click('#btn-step');
  await pg.click('#btn-checkpoint');
  await pg.click('#btn-end');
  await pg.waitForFunction(() => document.querySelector('#btn-end').disabled, null, { timeout: 10000 });
  const said = await pg.textContent('#narration');
  expect(said.includes("under the lab's barrier handler") && said.includes('classifies as at least once'), `the narration names it: ${said.slice(0, 300)}`);
  await pg.screenshot({ path: shots + 'explorer-lab-on-canvas-1366.png' });
  await pg.click('#btn-lang');
  expect((await pg.$eval('#sel-strategy', (e) => e.selectedOptions[0].textContent)).includes('实验室屏障处理器'), 'in Chinese');
  await pg.click('#btn-lang');
  await pg.context().close();
  // A link naming a handler opens with it (bad ones: see the malformed links' check).
  const again = await open({ width: 1366, height: 768 });
  const run = '{"barrierscope":1,"job":"two-inputs","settings":{"strategy":"aligned","handler":{"first":"snapshot-now","after":"process","last":"forward-only","in-flight":true}},"seed":1,"actions":"","at":0}';
  await again.evaluate((h) => { location.hash = h; }, '#run=' + Buffer.from(run).toString('base64url'));
  await again.waitForFunction(() => document.querySelector('#sel-strategy').value === 'lab', null, { timeout: 10000 });
  const opened = await again.$eval('#sel-strategy', (e) => e.selectedOptions[0].textContent);
  expect(opened.includes('in-flight records stored') && opened.includes('exactly once'), `the link's handler: ${opened}`);
  await again.context().close();
});

await check('explorer room: the study survives a reload, and its link reopens it', async () => {
  const pg = await open({ width: 1920, height: 1080 });
  await openRoom(pg, 'explorer');
  await pg.selectOption('#xp-study', 'aligned-abc');
  await pg.click('#xp-explore');
  await pg.waitForSelector('#xp-schedules[data-state="done"]');
  const hash = await pg.evaluate(() => location.hash);
  expect(hash.includes('study=aligned-abc') && hash.includes('explored=1'), `the link: ${hash}`);
  await pg.reload();
  await pg.waitForSelector('#room-explorer[data-loaded="true"]', { timeout: 15000 });
  await pg.waitForSelector('#xp-schedules[data-state="done"]', { timeout: 15000 });
  expect((await pg.$eval('#xp-summary', (e) => e.dataset.states)) === '174', 'the aligned study reopened and explored');
  await pg.keyboard.press('p');
  await pg.waitForSelector('#app[data-presenter="true"]');
  await pg.screenshot({ path: shots + 'room-explorer-presenter-1920.png' });
  // A fresh browser opens the link: the lab with its composed handler, classified.
  const pg2 = await open({ width: 1366, height: 768 });
  await pg2.goto(srv.url + '#room=explorer&tab=lab&h=now.process.forward.1&classified=1');
  await pg2.waitForSelector('#lab-verdict', { timeout: 60000 });
  expect((await pg2.$eval('#lab-verdict', (e) => e.dataset.guarantee)) === 'exactly once', 'the unaligned handler from the link');
  expect(await pg2.$eval('#lab-in-flight', (e) => e.value) === '1', 'its choices');
  await pg.context().close();
  await pg2.context().close();
});

await check('program room: keyed-count stopped with a savepoint, Count rescaled 2 -> 3, restores and ends exactly once; the ring at 1920, 1366 and presenter', async () => {
  const pg = await open({ width: 1920, height: 1080 });
  const seen = pageRequests(pg);
  await pg.click('#read-Source');
  expect(!seen.some((u) => u.includes('split_program-')), 'free play does not fetch the program part');
  await openRoom(pg, 'program');
  expect(seen.some((u) => u.includes('split_program-')), 'opening the room fetched its part');
  await pg.selectOption('#program-job', 'keyed-count');
  await pg.waitForSelector('#job-editor tr[data-operator="Count"]');
  for (let i = 0; i < 6; i++) await pg.evaluate(() => document.getElementById('btn-step').click());
  await pg.click('#btn-stop-savepoint');
  await pg.click('#btn-finish-stop');
  await pg.waitForFunction(() => document.getElementById('job-status').textContent.includes('stopped'));
  await pg.click('#par-plus-Count');
  expect((await pg.textContent('#par-Count')).trim() === '3', 'Count at three subtasks');
  expect(await pg.getAttribute('#mapping-table tr[data-operator="Count"]', 'data-fate') === 'kept', 'Count keeps its state');
  await pg.click('#btn-restore-into');
  await pg.waitForSelector('#restore-result[data-result="restored"]');
  const ring = await pg.$eval('#restore-result #key-ring', (e) => ({ ...e.dataset }));
  expect(ring.old === '2' && ring.new === '3' && ring.max === '128', `the ring: ${JSON.stringify(ring)}`);
  const after = await pg.$$eval('#restore-result #ring-after li', (es) => es.map((e) => e.textContent));
  expect(after.join('|') === 'subtask 0: key groups 0–42|subtask 1: key groups 43–85|subtask 2: key groups 86–127', `ranges: ${after}`);
  await pg.locator('#restore-result #key-ring').scrollIntoViewIfNeeded();
  await pg.screenshot({ path: shots + 'room-program-ring-1920.png' });
  await pg.setViewportSize({ width: 1366, height: 768 });
  await pg.locator('#restore-result #key-ring').scrollIntoViewIfNeeded();
  await pg.screenshot({ path: shots + 'room-program-ring-1366.png' });
  // Presenter mode at 1366x768: the room's text at least 16 px, the ring's labels too.
  await pg.focus('#btn-restore-into').catch(() => {});
  await pg.keyboard.press('p');
  await pg.waitForSelector('#app[data-presenter="true"]');
  const small = await pg.$$eval('.program-room p, .program-room td, .program-room th, .program-room button, .program-room select, .program-room li, .program-room label',
    (es) => es.filter((e) => e.offsetParent).map((e) => parseFloat(getComputedStyle(e).fontSize)).filter((s) => s < 16));
  expect(small.length === 0, `presenter text under 16 px: ${small.slice(0, 5)}`);
  const ringPx = await pg.$$eval('#restore-result #key-ring text', (ts) => ts.map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a));
  expect(ringPx.length > 0 && ringPx.every((p) => p >= 16), `ring labels: ${ringPx.map((p) => p.toFixed(1))}`);
  await pg.locator('#restore-result #key-ring').scrollIntoViewIfNeeded();
  await pg.screenshot({ path: shots + 'room-program-ring-presenter-1366.png' });
  await pg.keyboard.press('p');
  await pg.waitForSelector('#app[data-presenter="false"]');
  await pg.keyboard.press('Escape');
  await pg.waitForSelector('#canvas');
  expect(await pg.$('g.task[data-task="Count[2]"]'), 'the canvas shows the new program');
  await pg.click('#btn-end');
  await pg.waitForFunction(() => document.querySelectorAll('#ledger tbody tr').length === 8);
  const v = await verdicts(pg);
  expect(Object.values(v).every((x) => x === 'exactly-once'), `after the rescale: ${JSON.stringify(v)}`);
  await pg.screenshot({ path: shots + 'program-rescaled-canvas-1366.png' });
  await pg.context().close();
});

await check('program room: a Filter inserted without uids is refused with Flink\'s message; --allowNonRestoredState drops Count\'s state', async () => {
  const pg = await open({ width: 1366, height: 768 });
  await openRoom(pg, 'program');
  await pg.selectOption('#program-job', 'line');
  for (let i = 0; i < 8; i++) await pg.evaluate(() => document.getElementById('btn-step').click());
  await pg.click('#btn-stop-savepoint');
  await pg.click('#btn-finish-stop');
  await pg.waitForFunction(() => document.getElementById('job-status').textContent.includes('stopped'));
  await pg.click('#btn-insert-filter');
  const msg = await pg.textContent('#flink-message');
  expect(/Cannot map checkpoint\/savepoint state for operator [0-9a-f]{32} to the new program, because the operator is not available in the new program\. If you want to allow to skip this, you can set the --allowNonRestoredState option on the CLI\./.test(msg), msg);
  await pg.click('#btn-restore-into');
  await pg.waitForSelector('#restore-result[data-result="refused"]');
  await pg.screenshot({ path: shots + 'room-program-refused-1366.png' });
  await pg.check('#allow-non-restored');
  expect(await pg.getAttribute('#mapping-table tr[data-operator="Count"]', 'data-fate') === 'dropped', 'Count is dropped');
  await pg.click('#btn-restore-into');
  await pg.waitForSelector('#restore-result[data-result="restored"]');
  await pg.click('#btn-room-lang');
  expect((await pg.textContent('#h-restore')).includes('恢复'), 'the room in Chinese');
  await pg.screenshot({ path: shots + 'room-program-zh-1366.png' });
  await pg.context().close();
});

// Walks lesson 15 from its first step to its last reveal, marking every record exactly once
// before each reveal; at each step calls `at(step, revealed)`. Returns the scores, by step.
async function changedProgramLesson(pg, at) {
  const lesson = String((await pg.$$eval('#sel-lesson option', (os) => os.map((o) => o.textContent))).findIndex((t) => t.startsWith('15.')) - 1);
  await pg.selectOption('#sel-lesson', lesson);
  await pg.waitForSelector('#lesson[data-lesson="changed-program"]');
  const scores = {};
  for (let guard = 0; guard < 20; guard++) {
    const stepNo = await attr(pg, '#lesson', 'data-step');
    const revealed = (await attr(pg, '#lesson', 'data-revealed')) === 'true';
    await at(Number(stepNo), revealed);
    if (revealed) scores[stepNo] = [await attr(pg, '#score', 'data-right'), await attr(pg, '#score', 'data-total')].join('/');
    if (await pg.$('#predict')) for (const chip of await pg.$$('.predict-chip')) await chip.click();
    if (await pg.isDisabled('#lesson-next')) break;
    await pg.click('#lesson-next');
  }
  return scores;
}

await check('lesson 15, The program that restores may differ, in English at 1920x1080 and in Chinese presenter mode at 1366x768: the refusal quoted, three reveals judged against the engine, canvas text at least 16 px on every step', async () => {
  for (const [lang, width, height, presenter] of [['en', 1920, 1080, false], ['zh', 1366, 768, true], ['en', 1366, 768, true], ['zh', 1920, 1080, false]]) {
    const pg = await open({ width, height });
    if (lang === 'zh') await pg.click('#btn-lang');
    if (presenter) await pg.keyboard.press('p');
    await pg.waitForSelector(`#app[data-presenter="${presenter}"][data-lang="${lang}"]`);
    const problems = [];
    let smallest = Infinity;
    const scores = await changedProgramLesson(pg, async (stepNo, revealed) => {
      const tag = `${lang} ${width}${presenter ? ' presenter' : ''} step ${stepNo}${revealed ? ' revealed' : ''}`;
      const say = await pg.textContent('#lesson-say');
      if (stepNo === 3 && !/Cannot map checkpoint\/savepoint state for operator b728d985904d42b0fdd945a9e3253fca to the new program/.test(say)) problems.push(`${tag}: Flink's message quoted: ${say}`);
      // The lesson bar's button opens the Program & savepoints room on the lesson's run; Esc
      // comes back to the same step.
      if (stepNo === 3 && !revealed) {
        const label = await pg.textContent('#lesson-open-program');
        if (!(lang === 'zh' ? label.includes('程序与保存点') : label.includes('Program & savepoints'))) problems.push(`${tag}: the room button says ${label}`);
        await pg.click('#lesson-open-program');
        await pg.waitForSelector('#room-program[data-loaded="true"] #btn-restore-into', { timeout: 60000 });
        const listed = await pg.$$eval('#room-program #restore-from option', (os) => os.map((o) => o.textContent.trim()));
        if (listed.length < 2) problems.push(`${tag}: the room lists the lesson's savepoints 2 and 3: ${JSON.stringify(listed)}`);
        await pg.screenshot({ path: shots + `lesson15-${lang}-${width}${presenter ? '-presenter' : ''}-program-room.png` });
        await pg.keyboard.press('Escape');
        await pg.waitForSelector('#lesson[data-lesson="changed-program"][data-step="3"]');
        if (await pg.$('#room-program')) problems.push(`${tag}: Esc closes the room`);
        console.log(`     (lesson 15, ${lang}: the room opened from the lesson bar lists ${JSON.stringify(listed)})`);
      }
      if (stepNo === 4 && revealed) {
        const v = await verdicts(pg);
        const want = { a: 'lost', b: 'lost', c: 'lost', d: 'lost', e: 'exactly-once', f: 'exactly-once', g: 'exactly-once', h: 'exactly-once' };
        if (JSON.stringify(v) !== JSON.stringify(want)) problems.push(`${tag}: verdicts ${JSON.stringify(v)}`);
        if (!(await pg.$('g.task[data-task="Filter"]'))) problems.push(`${tag}: the canvas shows the Filter`);
      }
      if (stepNo === 8 && revealed) {
        for (const t of ['Count[0]', 'Count[1]', 'Count[2]']) if (!(await pg.$(`g.task[data-task="${t}"]`))) problems.push(`${tag}: no ${t} on the canvas`);
        const counts = await pg.$$eval('g.task[data-task^="Count"]', (gs) => Object.fromEntries(gs.map((g) => [g.dataset.task, [...g.querySelectorAll('.state.main')].map((t) => t.textContent.match(/\((\w)\)/)?.[1]).join('')])));
        if (JSON.stringify(counts) !== JSON.stringify({ 'Count[0]': 'u', 'Count[1]': 'xz', 'Count[2]': 'y' })) problems.push(`${tag}: keys by subtask ${JSON.stringify(counts)}`);
        if (!say.includes('86–127')) problems.push(`${tag}: the new ranges`);
      }
      const { min, who } = await minCanvasText(pg);
      smallest = Math.min(smallest, min);
      if (presenter && !(min >= 15.95)) problems.push(`${tag}: "${who}" is ${min.toFixed(1)} px`);
      problems.push(...(await canvasOverlaps(pg)).map((o) => `${tag}: ${o}`));
      if (presenter) problems.push(...(await inView(pg, ['#lesson-say', '#lesson-next', '.predict-chip', '#verdict', '#canvas'])).map((p) => `${tag}: ${p}`));
      await pg.screenshot({ path: shots + `lesson15-${lang}-${width}${presenter ? '-presenter' : ''}-step${stepNo}${revealed ? '-revealed' : ''}.png` });
    });
    expect(JSON.stringify(scores) === JSON.stringify({ 4: '4/8', 6: '8/8', 8: '8/8' }), `${lang}: marking every record exactly once scores ${JSON.stringify(scores)}`);
    console.log(`     (lesson 15, ${lang} ${width}${presenter ? ' presenter' : ''}: smallest canvas text ${smallest.toFixed(1)} px)`);
    expect(problems.length === 0, problems.slice(0, 12).join('\n'));
    await pg.context().close();
  }
});

await check('offline after the first visit: the service worker holds every part, and every room opens', async () => {
  const pg = await open();
  const html = await (await fetch(srv.url)).text();
  const parts = partsOf(html).map((p) => new URL(p, srv.url).href);
  await cached(pg, parts);
  await pg.context().setOffline(true);
  await pg.reload();
  await pg.waitForSelector('#app[data-ready="true"]', { timeout: 15000 });
  for (const id of await roomIds(pg)) {
    await openRoom(pg, id);
    await pg.keyboard.press('Escape');
  }
  await pg.context().close();
});

await check('? Help opens the book\'s "Using the page" (in Chinese its Chinese page) in a new tab, and offline after the first visit', async () => {
  const pg = await open();
  const ctx = pg.context();
  if (await pg.$('details.rooms-fold:not([open])')) await pg.click('#rooms-fold');
  const [en] = await Promise.all([ctx.waitForEvent('page'), pg.click('#help-link')]);
  await en.waitForLoadState();
  expect(new URL(en.url()).pathname.endsWith('/docs/using-the-page.html'), `Help opened ${en.url()}`);
  expect((await en.textContent('main h1')).trim() === 'Using the page', `the chapter: ${await en.textContent('main h1')}`);
  expect(await en.isVisible('text=Try the headline lesson'), 'the chapter has its text');
  await en.close();
  await pg.click('#btn-lang');
  await pg.waitForSelector('#help-link:has-text("帮助")');
  const [zh] = await Promise.all([ctx.waitForEvent('page'), pg.click('#help-link')]);
  await zh.waitForLoadState();
  expect(new URL(zh.url()).pathname.endsWith('/docs/zh/classroom.html'), `帮助 opened ${zh.url()}`);
  expect((await zh.textContent('main h1')).includes('页面与课堂'), 'the Chinese page');
  await zh.close();
  // Offline: the service worker cached the learners' chapters with the page.
  const html = await (await fetch(srv.url)).text();
  const book = (html.match(/<meta name="barrierscope-book" content="([^"]*)"/) || [, ''])[1].split(' ').filter(Boolean);
  expect(book.some((f) => f.endsWith('docs/using-the-page.html')) && book.some((f) => f.endsWith('.css')), `the book's files for the service worker: ${book.length}`);
  await cached(pg, book.map((p) => new URL(p, srv.url).href));
  await ctx.setOffline(true);
  const off = await ctx.newPage();
  await off.goto(srv.url + 'docs/using-the-page.html');
  expect((await off.textContent('main h1')).trim() === 'Using the page', 'the chapter opens offline');
  await ctx.close();
});

// ---- Hardening: offline, the Content-Security-Policy, accessibility ----

await check('offline after the first load: the service worker serves the page, and it runs', async () => {
  const pg = await open();
  const html = await (await fetch(srv.url)).text();
  expect(/<link rel="manifest" href="\.\/manifest\.webmanifest"/.test(html), 'the page names its web app manifest');
  const manifest = await (await fetch(srv.url + 'manifest.webmanifest')).json();
  expect(manifest.name && manifest.start_url === './' && manifest.display === 'standalone' && manifest.icons.length > 0, 'an installable manifest');
  expect(await pg.evaluate(async () => !!(await navigator.serviceWorker.ready).active), 'the service worker is active');
  await pg.waitForFunction(async () => (await (await caches.open('barrierscope-v1')).keys()).some((r) => r.url.endsWith('.wasm')), null, { timeout: 10000 });
  await pg.context().setOffline(true);
  await pg.reload();
  await pg.waitForSelector('#app[data-ready="true"]', { timeout: 15000 });
  await pg.keyboard.press('ArrowRight');
  await pg.keyboard.press('ArrowRight');
  expect(await step(pg) === 2, `two steps offline, at step ${await step(pg)}`);
  await pg.selectOption('#sel-lesson', '1');
  expect((await pg.textContent('#lesson')).length > 50, 'a lesson opens offline');
  await pg.context().close();
});

await check('under trunk serve the reload client moved out of the page keeps no placeholder trunk fills only in HTML', async () => {
  // trunk serve's reload client, as trunk writes it inline (src/autoreload.js of trunk 0.21.14).
  const dir = shots + 'serve-stage/';
  await mkdir(dir, { recursive: true });
  const client = "(function () { const address = '{{__TRUNK_ADDRESS__}}'; const base = '{{__TRUNK_WS_BASE__}}';" +
    " let protocol = ''; const url = (protocol || 'ws') + '://' + address + base + '.well-known/trunk/ws'; window.__url = url; })()";
  await writeFile(dir + 'index.html', `<html><head></head><body><script>${client}</script></body></html>`);
  execFileSync('node', [new URL('../scripts/no-inline-script.mjs', import.meta.url).pathname], { env: { ...process.env, TRUNK_STAGING_DIR: dir } });
  const html = await readFile(dir + 'index.html', 'utf8');
  const src = (html.match(/<script src="\.\/(script-[0-9a-f]+\.js)">/) || [])[1];
  expect(src, `the client is a file: ${html}`);
  const moved = await readFile(dir + src, 'utf8');
  expect(!moved.includes('{{__TRUNK'), `no placeholder left: ${moved}`);
  expect(moved.includes('const address = window.location.host;') && moved.includes("const base = '/';"), `the address is the page's own host, the base /: ${moved}`);
  const url = new Function('window', moved.replace('window.__url', 'window.url') + '; return window.url;')({ location: { host: '127.0.0.1:8080' } });
  expect(url === 'ws://127.0.0.1:8080/.well-known/trunk/ws', `it connects to trunk's socket on the page's host: ${url}`);
});

await check('the built page has a strict Content-Security-Policy and no inline script', async () => {
  const html = await (await fetch(srv.url)).text();
  const csp = (html.match(/http-equiv="Content-Security-Policy" content="([^"]+)"/) || [])[1] || '';
  for (const d of ["script-src 'self' 'wasm-unsafe-eval'", "object-src 'none'", "base-uri 'none'"]) expect(csp.includes(d), `the policy says ${d}: ${csp}`);
  const inline = [...html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/g)].filter((m) => !/\ssrc=/.test(m[1] || '') || m[2].trim());
  expect(inline.length === 0, `no inline script: ${inline.map((m) => m[0].slice(0, 80)).join(' | ')}`);
});

const axeSource = await readFile(tools + '/node_modules/axe-core/axe.min.js', 'utf8');
async function audit(pg, name, strict = false) {
  await pg.evaluate(axeSource);
  const found = await pg.evaluate(async () => (await axe.run(document, { resultTypes: ['violations'] })).violations
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, where: v.nodes.slice(0, 2).map((n) => n.target.join(' ')) })));
  const count = (i) => found.filter((v) => v.impact === i).reduce((a, v) => a + v.nodes, 0);
  console.log(`     axe ${name}: ${count('critical')} critical, ${count('serious')} serious, ${count('moderate')} moderate, ${count('minor')} minor`);
  const bad = found.filter((v) => v.impact === 'serious' || v.impact === 'critical' || (strict && v.impact));
  expect(bad.length === 0, `${name}: ${JSON.stringify(bad)}`);
}

// ---- The quiz room (src/app/rooms/quiz/, classroom/quiz/) ----
// The answer key comes from the runner (`barrierscope quiz SET`), which draws the set natively
// from the same seed: the page's grading is checked against it, not against itself.
function quizKey(set) {
  const text = execFileSync(runner(), ['quiz', String(set)], { encoding: 'utf8' });
  const qs = [];
  for (const line of text.split('\n')) {
    const head = line.match(/^(\d+)\. \[([a-z-]+)\] /);
    if (head) qs.push({ kind: head[2], right: [], options: 0 });
    const opt = line.match(/^   \[(x| )\] /);
    if (opt) { const q = qs[qs.length - 1]; if (opt[1] === 'x') q.right.push(q.options); q.options++; }
  }
  return qs;
}
async function openQuiz(set, viewport) {
  const pg = await open(viewport);
  await pg.goto(`${srv.url}#room=quiz&set=${set}`);
  await pg.reload();
  await pg.waitForSelector('#room-quiz[data-loaded="true"] #quiz-question', { timeout: 20000 });
  return pg;
}
const QUIZ_SET = 35;
// Question `index` is on screen, not yet graded, with the keyboard focus on its first option.
async function quizReady(pg, index) {
  await pg.waitForSelector(`#quiz-question[data-index="${index}"] #quiz-submit`);
  await pg.waitForFunction(() => document.activeElement && document.activeElement.id === 'quiz-opt-0');
}

await check('quiz room: free play fetches no quiz part, the menu opens it; the set in the link gives the same set as the runner, and another set another', async () => {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const pg = await context.newPage();
  pg.on('pageerror', (e) => errors.push(e.message));
  const seen = pageRequests(pg);
  await pg.goto(srv.url);
  await pg.waitForSelector('#app[data-ready="true"]');
  await pg.click('#read-Source');
  await pg.waitForTimeout(300);
  expect(!seen.some((u) => /\/split_quiz-/.test(u)), 'free play did not fetch the quiz part');
  await openRoom(pg, 'quiz');
  expect(seen.filter((u) => /\/split_quiz-[0-9a-f]{1,16}\.wasm$/.test(u)).length === 1, 'opening it fetched its part once');
  expect(/^#room=quiz&set=\d+$/.test(await pg.evaluate(() => location.hash)), 'the link names the set');
  await context.close();
  const key = quizKey(QUIZ_SET);
  expect(key.length === 10, `ten questions: ${key.length}`);
  const kinds = new Set(key.map((q) => q.kind));
  expect(kinds.size === 7, `seven types in the set: ${[...kinds]}`);
  const firsts = [];
  for (const set of [QUIZ_SET, QUIZ_SET, QUIZ_SET + 1]) {
    const p = await openQuiz(set);
    firsts.push([await p.getAttribute('#quiz-question', 'data-kind'), await p.getAttribute('#quiz-question', 'data-seed'), await p.textContent('#quiz-prompt')]);
    expect((await p.inputValue('#quiz-link')).endsWith(`#room=quiz&set=${set}`), 'the share field holds the set\'s link');
    await p.context().close();
  }
  expect(JSON.stringify(firsts[0]) === JSON.stringify(firsts[1]), `the same link, the same question: ${firsts[0]} / ${firsts[1]}`);
  expect(firsts[0][0] === key[0].kind, `the page's first question is the runner's: ${firsts[0][0]} / ${key[0].kind}`);
  expect(firsts[2][1] !== firsts[0][1], 'another set, another question');
});

await check('quiz room: by keyboard, one question of each type answered right and one wrong; the grading agrees with the runner; a score after ten, kept in the history', async () => {
  const key = quizKey(QUIZ_SET);
  const pg = await openQuiz(QUIZ_SET, { width: 1920, height: 1080 });
  await pg.evaluate(() => localStorage.removeItem('barrierscope.quiz.history'));
  expect(await pg.evaluate(() => document.activeElement && document.activeElement.id === 'quiz-opt-0'), 'the focus is on the first option');
  const rightDone = new Set(), wrongDone = new Set();
  let expected = 0;
  for (let i = 0; i < key.length; i++) {
    const q = key[i];
    expect((await pg.getAttribute('#quiz-question', 'data-kind')) === q.kind, `question ${i + 1} is ${q.kind}`);
    expect((await pg.$$('#quiz-question .quiz-option')).length === q.options, `question ${i + 1}: ${q.options} options`);
    // Type 1 shows its schedule as a space-time diagram too, up to the restore; no other type does.
    const diagram = await pg.$('#quiz-diagram');
    expect(!!diagram === (q.kind === 'lost-or-duplicated'), `question ${i + 1} (${q.kind}): a diagram ${!!diagram}`);
    if (diagram) {
      expect(Number(await pg.getAttribute('#quiz-diagram', 'data-arrows')) > 0 && await pg.isVisible('#quiz-diagram svg'), 'arrows drawn');
      expect(!(await pg.$('#quiz-diagram [tabindex]')), 'the still diagram takes no focus');
      if (!rightDone.has(q.kind)) await pg.screenshot({ path: shots + 'room-quiz-diagram-1920.png', fullPage: true });
    }
    // The first time a type comes, answer it right; the second time, wrong; a type asked once
    // (4 to 7 in a set of ten) is asked right here, and wrong in the next set below.
    const answerRight = !rightDone.has(q.kind);
    let ticks = q.right;
    if (!answerRight) {
      const wrong = [...Array(q.options).keys()].find((k) => !q.right.includes(k));
      ticks = q.right.length > 1 ? [wrong, ...q.right] : [wrong];
    }
    for (const t of ticks) await pg.keyboard.press(String((t + 1) % 10));
    await pg.keyboard.press('Enter');
    await pg.waitForSelector('#quiz-result');
    const graded = (await pg.getAttribute('#quiz-result', 'data-right')) === 'true';
    expect(graded === answerRight, `question ${i + 1} (${q.kind}) graded ${graded}, answered ${answerRight ? 'right' : 'wrong'}`);
    const marked = await pg.$$eval('#quiz-question .quiz-option', (os) => os.map((o, k) => (o.dataset.right === 'true' ? k : -1)).filter((k) => k >= 0));
    expect(JSON.stringify(marked) === JSON.stringify(q.right), `question ${i + 1}: the right options shown ${marked}, the runner's ${q.right}`);
    expect((await pg.textContent('#quiz-result .quiz-verdict')).startsWith(answerRight ? 'Right' : 'Not quite'), 'the verdict in words');
    expect((await pg.textContent('#quiz-why')).length > 40, 'an explanation');
    (answerRight ? rightDone : wrongDone).add(q.kind);
    if (answerRight) expected++;
    expect(await pg.evaluate(() => document.activeElement && document.activeElement.id === 'quiz-next'), 'the focus moves to Next');
    if (i === 1) {
      await pg.screenshot({ path: shots + 'room-quiz-graded-1920.png', fullPage: true });
      await pg.click('#btn-room-lang');
      expect((await pg.textContent('#quiz-result .quiz-verdict')).match(/答对了|不对/), 'the verdict in Chinese');
      await pg.screenshot({ path: shots + 'room-quiz-graded-zh-1920.png', fullPage: true });
      await pg.click('#btn-room-lang');
      await pg.focus('#quiz-next');
    }
    await pg.keyboard.press('Enter');
    if (i + 1 < key.length) await quizReady(pg, i + 1);
  }
  await pg.waitForSelector('#quiz-score');
  expect(Number(await pg.getAttribute('#quiz-score', 'data-right')) === expected, `the score: ${await pg.textContent('#quiz-score-title')}, expected ${expected}`);
  expect((await pg.textContent('#quiz-history')).includes(`Set ${QUIZ_SET}: ${expected} of 10`), 'the history keeps the set');
  // Types asked once in that set get their wrong answer in the next set.
  const next = quizKey(QUIZ_SET + 1);
  await pg.fill('#quiz-set-field', String(QUIZ_SET + 1));
  await pg.keyboard.press('Enter');
  await quizReady(pg, 0);
  for (let i = 0; i < next.length && wrongDone.size < 7; i++) {
    const q = next[i];
    if (!wrongDone.has(q.kind)) {
      const wrong = [...Array(q.options).keys()].find((k) => !q.right.includes(k));
      await pg.keyboard.press(String((wrong + 1) % 10));
    } else {
      for (const t of q.right) await pg.keyboard.press(String((t + 1) % 10));
    }
    await pg.keyboard.press('Enter');
    await pg.waitForSelector('#quiz-result');
    const graded = (await pg.getAttribute('#quiz-result', 'data-right')) === 'true';
    expect(graded === wrongDone.has(q.kind), `set ${QUIZ_SET + 1}, question ${i + 1} (${q.kind}): graded ${graded}`);
    wrongDone.add(q.kind);
    await pg.keyboard.press('Enter');
    if (i + 1 < next.length) await quizReady(pg, i + 1);
  }
  expect(wrongDone.size === 7 && rightDone.size === 7, `each type right and wrong: ${[...rightDone]} / ${[...wrongDone]}`);
  await pg.context().close();
});

await check('quiz room: a bad set number says why and keeps the quiz; bad stored data is ignored; Open on the canvas replays the question\'s run', async () => {
  const pg = await openQuiz(QUIZ_SET);
  const before = await pg.getAttribute('#quiz-question', 'data-seed');
  await pg.fill('#quiz-set-field', '12ab');
  await pg.click('#quiz-set-open');
  expect((await pg.textContent('#quiz-set-error')).includes('is not a set number'), 'the field says why');
  expect((await pg.getAttribute('#quiz-question', 'data-seed')) === before, 'the quiz is kept');
  await pg.evaluate(() => { localStorage.setItem('barrierscope.quiz.history', '\u0000 junk 3:99/10'); localStorage.setItem('barrierscope.quiz.progress', '{not'); });
  await pg.goto(`${srv.url}#room=quiz&set=abc`);
  await pg.reload();
  await pg.waitForSelector('#room-quiz[data-loaded="true"] #quiz-question', { timeout: 20000 });
  expect((await pg.textContent('#quiz-link-error')).includes('is not a set number'), 'a bad link says why');
  // Answer the first question, then open its run on the canvas.
  await pg.keyboard.press('1');
  await pg.keyboard.press('Enter');
  await pg.waitForSelector('#quiz-open');
  await pg.click('#quiz-open');
  await pg.waitForSelector('#room-quiz', { state: 'detached', timeout: 15000 });
  await pg.waitForSelector('#canvas');
  expect((await steps(pg)) > 5, `the canvas holds the question's run: ${await steps(pg)} steps`);
  await pg.context().close();
});

await check('quiz room: a savepoint question whose restore goes through opens the restored job on the canvas, a refused one the run that took the savepoint', async () => {
  // The first sets whose savepoint question restores, and is refused (the runner's key says).
  const found = {};
  for (let set = 1; set < 60 && Object.keys(found).length < 2; set++) {
    const key = quizKey(set);
    const i = key.findIndex((q) => q.kind === 'savepoint-restore');
    if (i < 0) continue;
    const restores = key[i].right[0] === 0;
    if (!(restores in found)) found[restores] = { set, i, key };
  }
  expect(Object.keys(found).length === 2, `sets found: ${JSON.stringify(Object.keys(found))}`);
  for (const [restores, { set, i, key }] of Object.entries(found)) {
    const pg = await openQuiz(set);
    for (let k = 0; k <= i; k++) {
      for (const t of key[k].right) await pg.keyboard.press(String((t + 1) % 10));
      await pg.keyboard.press('Enter');
      await pg.waitForSelector('#quiz-result');
      if (k < i) { await pg.keyboard.press('Enter'); await quizReady(pg, k + 1); }
    }
    await pg.click('#quiz-open');
    await pg.waitForSelector('#room-quiz', { state: 'detached', timeout: 15000 });
    await pg.waitForSelector('#canvas');
    if (restores === 'true') {
      expect(await steps(pg) === 0, `the restored job at its first step: ${await steps(pg)} steps`);
      expect(!(await pg.isDisabled('#btn-step')), 'the restored job runs');
    } else {
      expect(await steps(pg) > 3 && (await pg.isDisabled('#btn-step')), `the stopped run: ${await steps(pg)} steps`);
    }
    await pg.context().close();
  }
});

await check('quiz room: the checkpoint under backpressure: the run as set at the trigger, the explanation in figures, in both languages; Open on the canvas replays the run as set to the end of checkpoint 1', async () => {
  const key = quizKey(QUIZ_SET);
  const i = key.findIndex((q) => q.kind === 'backpressure-checkpoint');
  expect(i >= 0, 'the set has a question on the checkpoint under backpressure');
  const q = key[i];
  expect(q.options === 5 && q.right.length >= 1 && q.right.length < 5, `five options, some right and some wrong: ${JSON.stringify(q)}`);
  const pg = await openQuiz(QUIZ_SET, { width: 1366, height: 768 });
  for (let k = 0; k < i; k++) {
    for (const t of key[k].right) await pg.keyboard.press(String((t + 1) % 10));
    await pg.keyboard.press('Enter');
    await pg.waitForSelector('#quiz-result');
    await pg.keyboard.press('Enter');
    await quizReady(pg, k + 1);
  }
  expect((await pg.getAttribute('#quiz-question', 'data-kind')) === 'backpressure-checkpoint', 'the question on screen');
  expect((await pg.textContent('#quiz-q-title')).includes('Will the checkpoint complete under backpressure?'), await pg.textContent('#quiz-q-title'));
  const prompt = await pg.textContent('#quiz-prompt');
  const asked = prompt.match(/after (\d+) steps of Play\. .* timeout of (\d+) steps/);
  expect(asked, prompt);
  const [trigger, timeout] = [Number(asked[1]), Number(asked[2])];
  const setup = await pg.$$eval('#quiz-question .quiz-steps li', (ls) => ls.map((l) => l.textContent));
  expect(setup.length === 4 && setup[0].includes('record-cost') && setup[1].includes(`${timeout} steps`) && setup[3].startsWith('At the trigger, as set:'), setup.join(' | '));
  expect(/▲ backpressured|● busy/.test(setup[3]), `the tasks' classes at the trigger: ${setup[3]}`);
  for (const t of q.right) await pg.keyboard.press(String((t + 1) % 10));
  await pg.keyboard.press('Enter');
  await pg.waitForSelector('#quiz-result[data-right="true"]');
  const why = await pg.textContent('#quiz-why');
  expect(why.includes('start delay') && why.includes('in-flight records persisted') && (why.includes('completed in') || why.includes('expired')), why);
  await pg.click('#btn-room-lang');
  expect((await pg.textContent('#quiz-q-title')).includes('反压下检查点能完成吗'), await pg.textContent('#quiz-q-title'));
  expect((await pg.textContent('#quiz-why')).includes('启动延迟') && (await pg.textContent('#quiz-question .quiz-steps')).includes('触发时'), 'the question in Chinese');
  await pg.screenshot({ path: shots + 'room-quiz-backpressure-zh-1366.png', fullPage: true });
  await pg.click('#btn-room-lang');
  await pg.click('#quiz-open');
  await pg.waitForSelector('#room-quiz', { state: 'detached', timeout: 15000 });
  await pg.waitForSelector('#canvas');
  expect((await steps(pg)) > trigger, `the run as set to the end of checkpoint 1: ${await steps(pg)} steps, the trigger after ${trigger}`);
  await pg.waitForSelector('#canvas [data-task] [data-flow]');
  await pg.click('#tab-checkpoints');
  const ended = q.right.includes(0) ? 'completed' : 'failed';
  await pg.waitForSelector(`#checkpoint-chart .chart-checkpoint[data-checkpoint="1"].${ended}`);
  if (ended === 'failed') expect(await pg.$(`#checkpoint-chart .timeout-line[data-timeout="${timeout}"]`), 'the timeout line');
  await pg.screenshot({ path: shots + 'room-quiz-backpressure-opened-1366.png' });
  await pg.context().close();
});

await check('quiz room: presenter mode at 1920x1080 and 1366x768: text 16 px or more; axe reports nothing at all in the room', async () => {
  for (const [w, h] of [[1920, 1080], [1366, 768]]) {
    const pg = await openQuiz(QUIZ_SET, { width: w, height: h });
    await pg.screenshot({ path: shots + `room-quiz-${w}.png` });
    await audit(pg, `quiz room ${w}`, true);
    await pg.keyboard.press('p');
    await pg.waitForSelector('#app[data-presenter="true"]');
    await pg.keyboard.press('1');
    await pg.keyboard.press('Enter');
    await pg.waitForSelector('#quiz-result');
    await pg.screenshot({ path: shots + `room-quiz-presenter-${w}.png`, fullPage: true });
    const small = await pg.$$eval('#room-quiz *', (es) => es
      .filter((e) => e.offsetParent !== null && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
      .map((e) => [e.tagName, parseFloat(getComputedStyle(e).fontSize)]).filter(([, s]) => s < 16));
    expect(small.length === 0, `text under 16 px in presenter mode at ${w}: ${JSON.stringify(small.slice(0, 5))}`);
    await audit(pg, `quiz room presenter ${w}`, true);
    await pg.context().close();
  }
});

await check('accessibility audit (axe-core): no serious or critical violation on five pages', async () => {
  const pg = await open();
  await audit(pg, 'free play');
  await pg.selectOption('#sel-lesson', '1');
  await pg.keyboard.press('PageDown');
  await audit(pg, 'a lesson');
  await pg.keyboard.press('p');
  await pg.waitForSelector('#app[data-presenter="true"]');
  await audit(pg, 'presenter mode');
  await pg.keyboard.press('Escape');
  await pg.click('#btn-lang');
  await audit(pg, 'Chinese');
  await pg.click('#btn-lang');
  await pg.click('#tab-checkpoints');
  await audit(pg, 'Checkpoints tab');
  await pg.context().close();
});

await check('presenter mode: the ▤ Rooms button reads clearly on the dark bar (contrast 4.5 or more), at 1366x768 and 1920x1080', async () => {
  for (const viewport of [{ width: 1366, height: 768 }, { width: 1920, height: 1080 }]) {
    const pg = await open(viewport);
    await pg.keyboard.press('p');
    await pg.waitForSelector('#app[data-presenter="true"]');
    const ratio = await pg.$eval('#rooms-fold', (el) => {
      const rgb = (c) => c.match(/[\d.]+/g).map(Number);
      const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
        .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
      let bg = null;
      for (let e = el; e && !bg; e = e.parentElement) {
        const c = getComputedStyle(e).backgroundColor;
        if (rgb(c)[3] !== 0) bg = c;
      }
      const [a, b] = [lum(rgb(getComputedStyle(el).color)), lum(rgb(bg || 'rgb(255, 255, 255)'))];
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    });
    expect(ratio >= 4.5, `${viewport.width}: the Rooms button's contrast is ${ratio.toFixed(2)}`);
    await pg.screenshot({ path: shots + `presenter-rooms-fold-${viewport.width}.png` });
    await pg.context().close();
  }
});

// ---- Lessons as files and embed mode (issue 36) ----
const handWritten = new URL('../tests/fixtures/lessons/hand-written.json', import.meta.url).pathname;
const b64url = (text) => Buffer.from(text, 'utf8').toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

await check('lesson-file: a hand-written lesson opens with ↑ Import and plays in English and Chinese; its link reopens it', async () => {
  const report = execFileSync(runner(), ['lesson', 'check', handWritten], { encoding: 'utf8' });
  expect(/append-twice .*: ok\n/.test(report), `lesson check: ${report}`);
  const pg = await open();
  await pg.setInputFiles('#inp-import', handWritten);
  await pg.waitForSelector('#lesson[data-lesson="append-twice"]', { timeout: 15000 });
  const notice = await pg.textContent('#notice');
  expect(notice.includes('Opened the lesson “An append sink writes c twice” from the file.'), notice);
  expect(await value(pg, '#sel-lesson') === '16', `menu ${await value(pg, '#sel-lesson')}`);
  expect((await pg.$eval('#sel-lesson', (s) => s.selectedOptions[0].textContent)) === 'From a file: An append sink writes c twice', 'the menu names the file lesson');
  expect((await pg.textContent('#lesson-title')) === 'An append sink writes c twice', 'title');
  for (let i = 0; i < 3; i++) await pg.keyboard.press('PageDown');
  expect(await attr(pg, '#lesson', 'data-step') === '4' && await pg.$('#predict'), 'the prediction step');
  const labels = await pg.$$eval('.predict-chip', (cs) => cs.map((c) => c.id.slice('predict-'.length)));
  expect(labels.length === 8, `records ${labels}`);
  await mark(pg, Object.fromEntries(labels.map((l) => [l, l === 'c' ? 'duplicated' : 'exactly-once'])));
  await pg.keyboard.press('PageDown');
  expect(await attr(pg, '#lesson', 'data-revealed') === 'true', 'revealed');
  expect(await attr(pg, '#score', 'data-right') === '8' && await attr(pg, '#score', 'data-total') === '8', `score ${await attr(pg, '#score', 'data-right')}`);
  expect(await attr(pg, '#score [data-record="c"]', 'data-actual') === 'duplicated', 'c is in the output twice');
  expect((await pg.textContent('#lesson-say')).startsWith('c is in the file twice'), 'the reveal');
  expect(!(await pg.$('#lesson-following')), 'a lesson from a file has no next lesson');
  await pg.click('#btn-lang');
  expect((await pg.textContent('#lesson-title')) === '追加式 Sink 把 c 写了两次', 'the Chinese title');
  expect((await pg.textContent('#lesson-say')).startsWith('c 在文件里出现了两次'), 'the Chinese reveal');
  expect((await pg.$eval('#sel-lesson', (s) => s.selectedOptions[0].textContent)) === '来自文件：追加式 Sink 把 c 写了两次', 'the Chinese menu');
  await pg.screenshot({ path: shots + '36a-lesson-file-zh-1366.png' });
  await pg.click('#btn-share');
  await pg.waitForSelector('#share-url');
  const link = await pg.inputValue('#share-url');
  const other = await open();
  await other.goto(link);
  await other.waitForSelector('#lesson[data-lesson="append-twice"]', { timeout: 15000 });
  expect(await attr(other, '#lesson', 'data-step') === '4' && await attr(other, '#lesson', 'data-revealed') === 'true', 'the link reopens the file lesson where it stood');
  await other.context().close();
  // PageUp through the lesson and leave it: the menu goes back to free play.
  await pg.click('#lesson-exit');
  expect(await value(pg, '#sel-lesson') === 'none', 'left the lesson');
  await pg.context().close();
});

await check('lesson-file: a broken lesson file gets the message the README lists, naming the step and the field; the open run stays', async () => {
  const broken = (await readFile(handWritten, 'utf8')).replace('"read Source x2", "checkpoint"', '"reed Source x2", "checkpoint"');
  const pg = await open();
  await pg.keyboard.press('ArrowRight');
  await pg.keyboard.press('ArrowRight');
  await pg.setInputFiles('#inp-import', { name: 'broken-lesson.json', mimeType: 'application/json', buffer: Buffer.from(broken) });
  await pg.waitForFunction(() => document.querySelector('#notice').textContent.includes('lesson file'), null, { timeout: 15000 });
  const en = (await pg.textContent('#notice span')).trim();
  const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
  expect(en === "Couldn't open the file: it is not a valid lesson file: step 2, \"play\": line 1: \"reed Source x2\": unknown script word \"reed\". Your current run is unchanged.", en);
  expect(readme.includes(en), 'the README lists the message');
  expect(await step(pg) === 2 && !(await pg.$('#lesson')), 'the run that was open is unchanged');
  await pg.click('#btn-lang');
  const zh = (await pg.textContent('#notice span')).trim();
  expect(zh.startsWith('无法打开文件：它不是有效的课程文件：第 2 步，"play"：'), zh);
  await pg.context().close();
});

await check('lesson-file: #lesson= links open a built-in lesson by its id and a lesson file in base64url', async () => {
  const pg = await open();
  await pg.goto(srv.url + '#lesson=barrier');
  await pg.waitForSelector('#lesson[data-lesson="barrier"]', { timeout: 15000 });
  expect(await value(pg, '#sel-lesson') === '3', 'the menu shows lesson 4');
  const file = await readFile(handWritten, 'utf8');
  const fresh = await open();
  await fresh.goto(srv.url + '#lesson=' + b64url(file));
  await fresh.waitForSelector('#lesson[data-lesson="append-twice"]', { timeout: 15000 });
  expect(await attr(fresh, '#lesson', 'data-step') === '1', 'at its first step');
  await fresh.context().close();
  await pg.context().close();
});

for (const [w, h] of [[640, 360], [1280, 720]]) {
  await check(`embed: in an iframe at ${w}x${h}, only the canvas and the step controls, the lesson from the link, nothing scrolls`, async () => {
    const ctx = await browser.newContext({ viewport: { width: w + 40, height: h + 40 } });
    const pg = await ctx.newPage();
    pg.on('pageerror', (e) => errors.push(e.message));
    await pg.setContent(`<body style="margin:20px"><iframe id="slide" src="${srv.url}?embed#lesson=alignment" width="${w}" height="${h}" style="border:0"></iframe></body>`);
    const frame = await (await pg.waitForSelector('#slide')).contentFrame();
    await frame.waitForSelector('#lesson[data-lesson="alignment"]', { timeout: 20000 });
    expect(await frame.getAttribute('html', 'data-embed') === '', 'embed mode');
    for (const hidden of ['.topbar', '.sharebar', '.verdict', '.tabs', '#btn-crash', '#btn-checkpoint']) {
      expect(!(await frame.isVisible(hidden)), `${hidden} is hidden`);
    }
    for (const shown of ['#canvas', '#btn-step', '#inp-timeline', '#lesson-next']) expect(await frame.isVisible(shown), `${shown} is shown`);
    for (let i = 0; i < 3; i++) {
      const fit = await frame.evaluate(() => {
        const c = document.querySelector('#canvas').getBoundingClientRect();
        const l = document.querySelector('#lesson').getBoundingClientRect();
        return { scroll: document.scrollingElement.scrollHeight - innerHeight, canvas: c.height, bottom: Math.max(c.bottom, l.bottom), h: innerHeight, w: innerWidth, right: c.right };
      });
      expect(fit.scroll <= 1 && fit.bottom <= fit.h + 1 && fit.right <= fit.w + 1, `step ${i + 1} fits: ${JSON.stringify(fit)}`);
      expect(fit.canvas >= fit.h * 0.3, `the canvas takes a good part of the frame: ${JSON.stringify(fit)}`);
      await frame.click('#lesson-next');
    }
    expect(await frame.getAttribute('#lesson', 'data-step') === '4', 'the lesson steps in the frame');
    await pg.screenshot({ path: shots + `36b-embed-lesson-${w}x${h}.png` });
    // A run from a share link, embedded.
    const run = await open();
    for (let i = 0; i < 3; i++) await run.keyboard.press('ArrowRight');
    await run.click('#btn-share');
    await run.waitForSelector('#share-url');
    const hash = new URL(await run.inputValue('#share-url')).hash;
    await run.context().close();
    await frame.goto(`${srv.url}?embed${hash}`);
    await frame.waitForSelector('#app[data-ready="true"][data-step="3"]', { timeout: 20000 });
    expect(!(await frame.$('#lesson')) && await frame.isVisible('#canvas') && !(await frame.isVisible('.sharebar')), 'the run, embedded');
    await pg.screenshot({ path: shots + `36c-embed-run-${w}x${h}.png` });
    await ctx.close();
  });
}

await check('embed: offline, the book\'s chapter with its embedded lesson still plays the lesson in its frame', async () => {
  const pg = await open();
  await pg.evaluate(async () => (await navigator.serviceWorker.ready).active.state);
  await pg.reload();
  await pg.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20000 });
  const chapter = srv.url + 'docs/lessons.html';
  await pg.goto(chapter);
  const online = await (await pg.waitForSelector('#embed-example')).contentFrame();
  await online.waitForSelector('#lesson[data-lesson="alignment"]', { timeout: 20000 });
  await pg.context().setOffline(true);
  await pg.reload();
  const frame = await (await pg.waitForSelector('#embed-example')).contentFrame();
  await frame.waitForSelector('#lesson[data-lesson="alignment"]', { timeout: 20000 });
  await frame.click('#lesson-next');
  expect(await frame.getAttribute('#lesson', 'data-step') === '2', 'the lesson steps offline');
  expect(await frame.getAttribute('html', 'data-embed') === '', 'in embed mode');
  await pg.context().close();
});

await check('no request left 127.0.0.1 during the whole run', async () => {
  expect(offHost.length === 0, offHost.slice(0, 5).join('\n'));
});

await check('no Content-Security-Policy violation during the whole run', async () => {
  expect(cspViolations.length === 0, cspViolations.slice(0, 5).join('\n'));
});

await check('no errors in the page', async () => {
  expect(errors.length === 0, errors.join('\n'));
});

await browser.close();
await srv.close();
console.log(`\ne2e: ${passed} passed, ${failed} failed`);
if (failed) {
  console.log('failed: ' + problems.join('; '));
  process.exit(1);
}
