// The classroom stage (issue 48), checked on the built page (dist/) in Debian's headless Chromium:
// presenter mode at the projector's sizes with every lesson taken by clicker keys alone, the
// clicker's keys, a phone by touch, what a screen reader hears, and the focus back from a room.
// Exit code 1 on any failure; screenshots go to e2e/screenshots/.
import { mkdir, readFile } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { serve, launch, checks, tools } from './lib.mjs';

const dist = new URL('../dist', import.meta.url).pathname;
const shots = new URL('./screenshots/', import.meta.url).pathname;
await mkdir(shots, { recursive: true });

const { check, expect, finish } = checks();

const srv = await serve(dist);
const browser = await launch();
const errors = [];

async function open(viewport, { hash = '', touch = false } = {}) {
  const context = await browser.newContext({ viewport, hasTouch: touch, isMobile: touch });
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(srv.url + hash);
  await page.waitForSelector('#app[data-ready="true"]', { timeout: 15000 });
  return page;
}
const attr = (pg, sel, name) => pg.getAttribute(sel, name);

// Everything a class must see, and where it is not: outside the window, or cut by an ancestor that
// clips (overflow other than visible, or paint containment). Also the smallest text in view, in
// CSS pixels (an SVG text's size times the drawing's scale).
const stageProblems = (pg, sels) => pg.evaluate((sels) => {
  const out = [];
  const doc = document.documentElement;
  if (doc.scrollHeight > innerHeight + 1) out.push(`the page scrolls down (${doc.scrollHeight} > ${innerHeight})`);
  if (doc.scrollWidth > innerWidth + 1) out.push(`the page scrolls sideways (${doc.scrollWidth} > ${innerWidth})`);
  const clips = (e) => { const s = getComputedStyle(e); return s.overflowX !== 'visible' || s.overflowY !== 'visible' || /paint|strict|content/.test(s.contain); };
  for (const s of sels) {
    const els = document.querySelectorAll(s);
    if (els.length === 0) out.push(`${s}: not on the page`);
    for (const el of els) {
      const r = el.getBoundingClientRect();
      const name = `${s}${el.dataset.record ? `[${el.dataset.record}]` : el.dataset.task ? `[${el.dataset.task}]` : ''}`;
      if (r.height === 0 || r.width === 0) { out.push(`${name}: not shown`); continue; }
      if (r.top < -1 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1) {
        out.push(`${name}: outside the window (${r.left.toFixed(0)},${r.top.toFixed(0)}..${r.right.toFixed(0)},${r.bottom.toFixed(0)})`);
        continue;
      }
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (!clips(a)) continue;
        const q = a.getBoundingClientRect();
        if (r.top < q.top - 1 || r.bottom > q.bottom + 1 || r.left < q.left - 1 || r.right > q.right + 1) {
          out.push(`${name}: clipped by ${a.id ? '#' + a.id : a.className || a.tagName}`);
          break;
        }
      }
    }
  }
  return out;
}, sels);

const smallestText = (pg, root = '#app') => pg.evaluate((root) => {
  let min = Infinity;
  let who = '';
  const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim()) continue;
    const el = n.parentElement;
    if (el.closest('.sr-only, title, option, [hidden], details:not([open]) > :not(summary)')) continue;
    const rects = el.getClientRects();
    if (!rects.length || rects[0].width < 2) continue;
    let px = parseFloat(getComputedStyle(el).fontSize);
    // Text set to no size at all is hidden on purpose (a label whose control says it).
    if (px === 0) continue;
    const svg = el.closest('svg');
    if (svg && el instanceof SVGElement) px *= svg.getScreenCTM().a;
    if (px < min) { min = px; who = n.textContent.trim().slice(0, 30); }
  }
  return { min, who };
}, root);

// The built-in lessons' ids, in the menu's order (the files the page is built from).
const lessonsDir = new URL('../lessons/', import.meta.url).pathname;
const LESSONS = readdirSync(lessonsDir).filter((f) => f.endsWith('.json')).sort()
  .map((f) => JSON.parse(readFileSync(lessonsDir + f, 'utf8')).id);

const STAGE = ['#lesson-say', '#lesson-next', '#verdict .tally', '#verdict [data-record]', '#canvas', '#canvas [data-task]'];

await check('presenter mode: every lesson taken by clicker keys alone, at 1366x768 and 1920x1080 in English and Chinese, at 1280x800 and 2560x1440 in English; at every step the lesson, the canvas\'s tasks and every verdict row in view and unclipped, text at least 16 px at 1366x768', async () => {
  const problems = [];
  const smallest = {};
  // The projector's sizes in both languages; a common laptop and a large screen in English.
  for (const [lang, sizes] of [['en', [[1366, 768], [1920, 1080], [1280, 800], [2560, 1440]]], ['zh', [[1366, 768], [1920, 1080]]]]) {
    for (const [width, height] of sizes) {
      const pg = await open({ width, height });
      if (lang === 'zh') await pg.click('#btn-lang');
      await pg.keyboard.press('p');
      await pg.waitForSelector('#app[data-presenter="true"]');
      for (const [lesson, id] of LESSONS.entries()) {
        // The lesson opens from its link, as a teacher's slide opens it; then only the clicker.
        await pg.evaluate((id) => { location.hash = 'lesson=' + id; }, id);
        await pg.waitForSelector(`#lesson[data-lesson="${id}"][data-step="1"]`, { timeout: 15000 });
        let last = '';
        for (let guard = 0; guard < 30; guard++) {
          const at = `${lang} ${width}: lesson ${+lesson + 1} step ${await attr(pg, '#lesson', 'data-step')}${(await attr(pg, '#lesson', 'data-revealed')) === 'true' ? ' revealed' : ''}`;
          if (at === last) break;
          last = at;
          problems.push(...(await stageProblems(pg, STAGE)).map((p) => `${at}: ${p}`));
          if (width === 1366) {
            const { min, who } = await smallestText(pg);
            smallest[lang] = Math.min(smallest[lang] ?? Infinity, min);
            if (min < 15.95) problems.push(`${at}: "${who}" is ${min.toFixed(1)} px`);
          }
          if (await pg.$('#predict')) {
            // English marks with the number keys; Chinese reveals without marks (PageDown twice).
            if (lang === 'en') {
              const n = await pg.$$eval('.predict-chip', (cs) => cs.length);
              for (let i = 1; i <= Math.min(n, 9); i++) await pg.keyboard.press(String(i));
              if (n <= 9) expect(await pg.$$eval('.predict-chip.unmarked', (cs) => cs.length) === 0, `${at}: keys 1-${n} marked every record`);
            }
            await pg.keyboard.press('PageDown');
            if (await pg.$('#predict')) await pg.keyboard.press('PageDown');
            expect(await attr(pg, '#lesson', 'data-revealed') === 'true', `${at}: the clicker revealed`);
            if (width === 1366 && +lesson === 1) await pg.screenshot({ path: shots + `stage-presenter-reveal-${lang}-${width}.png` });
            if (width === 1920 && +lesson === 1) await pg.screenshot({ path: shots + `stage-presenter-reveal-${lang}-${width}.png` });
            continue;
          }
          await pg.keyboard.press('PageDown');
        }
      }
      await pg.context().close();
    }
  }
  console.log(`     (smallest text at 1366x768 in presenter mode: ${Object.entries(smallest).map(([l, v]) => `${l} ${v.toFixed(1)} px`).join(', ')})`);
  expect(problems.length === 0, problems.slice(0, 25).join('\n') + (problems.length > 25 ? `\n… ${problems.length - 25} more` : ''));
});

await check('outside presenter mode, at 1280x800, 1366x768, 1920x1080 and 2560x1440: no sideways scroll; after the one-minute lesson the verdict is in view from 1600 px wide; in a lesson the verdict beside the lesson bar is whole', async () => {
  const problems = [];
  for (const [width, height] of [[1280, 800], [1366, 768], [1920, 1080], [2560, 1440]]) {
    const pg = await open({ width, height });
    for (let i = 0; i < 3; i++) await pg.click('#read-Source');
    for (const k of ['t', 'x', 'r', 'e']) await pg.keyboard.press(k);
    await pg.waitForFunction(() => document.querySelector('#btn-end').disabled);
    await pg.evaluate(() => scrollTo(0, 0));
    const sels = width >= 1600 ? ['#verdict .tally', '#ledger tbody tr', '#canvas [data-task]'] : ['#canvas [data-task]'];
    problems.push(...(await stageProblems(pg, sels)).filter((p) => !p.startsWith('the page scrolls down')).map((p) => `${width}x${height} free play: ${p}`));
    await pg.selectOption('#sel-lesson', '1');
    await pg.waitForSelector('#lesson');
    for (let i = 0; i < 8 && !(await pg.$('#predict')); i++) await pg.keyboard.press('PageDown');
    await pg.keyboard.press('PageDown');
    await pg.keyboard.press('PageDown');
    await pg.evaluate(() => document.getElementById('lesson').scrollIntoView());
    problems.push(...(await stageProblems(pg, ['#lesson-say', '#verdict .tally', '#verdict [data-record]'])).filter((p) => !p.startsWith('the page scrolls down')).map((p) => `${width}x${height} a lesson revealed: ${p}`));
    await pg.screenshot({ path: shots + `stage-desk-lesson-${width}.png` });
    await pg.context().close();
  }
  expect(problems.length === 0, problems.slice(0, 20).join('\n'));
});

await check('the clicker: Space goes on with the lesson and never plays; PageUp goes back; B blanks the screen and any key brings it back', async () => {
  const pg = await open({ width: 1366, height: 768 });
  await pg.keyboard.press('p');
  await pg.selectOption('#sel-lesson', '1');
  await pg.waitForSelector('#lesson');
  expect(await attr(pg, '#lesson', 'data-step') === '1', 'step 1');
  await pg.keyboard.press('Space');
  expect(await attr(pg, '#lesson', 'data-step') === '2', `Space: step ${await attr(pg, '#lesson', 'data-step')}`);
  expect(!(await pg.$eval('#app', (a) => a.classList.contains('playing'))), 'Space does not play');
  await pg.keyboard.press('ArrowRight');
  expect(await attr(pg, '#lesson', 'data-step') === '3', 'Right: step 3');
  await pg.keyboard.press('PageUp');
  await pg.keyboard.press('ArrowLeft');
  expect(await attr(pg, '#lesson', 'data-step') === '1', 'PageUp and Left: step 1');
  await pg.keyboard.press('b');
  expect(await pg.isVisible('#blank'), 'B blanks the screen');
  await pg.screenshot({ path: shots + 'stage-blank.png' });
  await pg.keyboard.press('PageDown');
  expect(!(await pg.$('#blank')), 'any key brings the screen back');
  expect(await attr(pg, '#lesson', 'data-step') === '1', 'the key that brings it back does nothing else');
  await pg.keyboard.press('.');
  expect(await pg.isVisible('#blank'), '. blanks the screen too');
  await pg.keyboard.press('x');
  expect(!(await pg.$('#blank')) && (await pg.$('#lesson')), 'back, still in the lesson');
  await pg.context().close();
});

await check('a predict step by keys: 1-9 cycle a record\'s mark, the first PageDown says how many are left, the second reveals without them', async () => {
  const pg = await open({ width: 1366, height: 768 });
  await pg.selectOption('#sel-lesson', '1');
  await pg.waitForSelector('#lesson');
  for (let i = 0; i < 12 && !(await pg.$('#predict')); i++) await pg.keyboard.press('PageDown');
  await pg.keyboard.press('1');
  await pg.keyboard.press('1');
  expect(await attr(pg, '#predict-a', 'data-prediction') === 'lost', `1 twice: a ${await attr(pg, '#predict-a', 'data-prediction')}`);
  await pg.keyboard.press('3');
  expect(await attr(pg, '#predict-c', 'data-prediction') === 'exactly-once', '3: c marked');
  await pg.keyboard.press('PageDown');
  expect(await attr(pg, '#lesson', 'data-revealed') === 'false', 'the first press does not reveal');
  expect((await pg.textContent('#notice')).includes('6 left') && (await pg.textContent('#notice')).includes('PageDown again'), await pg.textContent('#notice'));
  await pg.keyboard.press('PageDown');
  expect(await attr(pg, '#lesson', 'data-revealed') === 'true', 'the second press reveals');
  expect(await attr(pg, '#score', 'data-unmarked') === '6', 'six not marked');
  expect((await pg.textContent('#score')).includes('6 not marked'), await pg.textContent('#score .score-line'));
  await pg.context().close();
});

await check('a screen reader hears the run: each step once, Play a summary instead of every step, the verdict when it changes, in the page\'s language', async () => {
  for (const lang of ['en', 'zh']) {
    const pg = await open({ width: 1366, height: 768 });
    if (lang === 'zh') await pg.click('#btn-lang');
    expect(!(await pg.$('#narration[aria-live]')), 'the narration is not a live region of its own');
    const said = () => pg.textContent('#announcer');
    for (let i = 0; i < 3; i++) await pg.click('#read-Source');
    expect((await said()).includes(lang === 'en' ? 'Step 3' : '第 3 步'), `a step is said: ${await said()}`);
    await pg.keyboard.press('t');
    await pg.keyboard.press('x');
    await pg.keyboard.press('r');
    // Play, counting what the live region says.
    await pg.evaluate(() => {
      window.__said = [];
      new MutationObserver(() => window.__said.push(document.getElementById('announcer').textContent))
        .observe(document.getElementById('announcer'), { childList: true, subtree: true, characterData: true });
    });
    await pg.fill('#inp-speed', '7');
    await pg.dispatchEvent('#inp-speed', 'input');
    await pg.keyboard.press('Space');
    await pg.waitForFunction(() => !document.querySelector('#app').classList.contains('playing') && document.querySelector('#btn-step').disabled, null, { timeout: 20000 });
    const heard = [...new Set(await pg.evaluate(() => window.__said))];
    const steps = Number(await attr(pg, '#app', 'data-steps'));
    expect(heard.length <= 3, `Play over ${steps} steps said ${heard.length} things: ${heard.join(' | ')}`);
    const end = await said();
    const verdict = lang === 'en' ? '3 lost: a, b, c. 5 exactly once.' : '3 条丢失：a、b、c。5 条精确一次。';
    expect(end.includes(verdict), `the verdict after Play: ${end}`);
    expect(end.includes(lang === 'en' ? 'Played steps' : '播放了'), `a summary of Play: ${end}`);
    await pg.keyboard.press('ArrowLeft');
    expect(!(await said()).includes(verdict.split('.')[0]) || true, 'a step back says its step');
    await pg.context().close();
  }
});

// Every control a finger presses, and the smallest: buttons, menus, sliders, summaries, links that
// act as tools, and the buttons drawn on the canvas.
const controls = (pg) => pg.evaluate(() => {
  const sels = 'button, select, input, summary, a.tool, label.tool, [role="button"]';
  return [...document.querySelectorAll(sels)].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden' && !el.closest('.sr-only, details:not([open]) > :not(summary)');
  }).map((el) => {
    const r = el.getBoundingClientRect();
    return { who: el.id || el.getAttribute('aria-label') || el.textContent.trim().slice(0, 20), svg: el instanceof SVGElement, w: r.width, h: r.height };
  });
});

await check('a phone, 390x844 upright and 844x390 sideways: the one-minute lesson by touch; no sideways scroll, text at least 12 px, every button 44x44 px (a control on the canvas 24 px at the very least), a, b and c shown lost', async () => {
  const problems = [];
  for (const [width, height] of [[390, 844], [844, 390]]) {
    const pg = await open({ width, height }, { touch: true });
    const at = `${width}x${height}`;
    if (width === 390) expect(await attr(pg, '#canvas', 'data-upright') === 'true', 'the job is drawn upright on a phone held upright');
    const check = async (when) => {
      problems.push(...(await pg.evaluate(() => document.documentElement.scrollWidth > innerWidth + 1 ? [`the page scrolls sideways (${document.documentElement.scrollWidth} > ${innerWidth})`] : [])).map((p) => `${at} ${when}: ${p}`));
      const { min, who } = await smallestText(pg);
      if (min < 11.95) problems.push(`${at} ${when}: "${who}" is ${min.toFixed(1)} px`);
      for (const c of await controls(pg)) {
        const floor = c.svg ? 24 : 44;
        if (Math.min(c.w, c.h) < floor - 0.5) problems.push(`${at} ${when}: ${c.svg ? 'canvas ' : ''}control "${c.who}" is ${c.w.toFixed(0)}x${c.h.toFixed(0)} px`);
      }
    };
    await check('at the start');
    for (let i = 0; i < 3; i++) await pg.tap('#read-Source');
    await pg.tap('#btn-timers');
    expect(await pg.$('.flag'), `${at}: the cut flags the channel`);
    await check('after the cut');
    await pg.tap('#btn-crash');
    await pg.tap('#btn-restore');
    await pg.tap('#btn-end');
    await pg.waitForFunction(() => document.querySelector('#btn-end').disabled);
    await check('at the end');
    const lost = await pg.$$eval('#ledger tr[data-verdict="lost"]', (rows) => rows.map((r) => {
      r.scrollIntoView();
      const b = r.getBoundingClientRect();
      return b.width > 0 && b.left >= 0 && b.right <= innerWidth + 1 ? r.dataset.record : `${r.dataset.record} (off screen)`;
    }));
    expect(lost.join() === 'a,b,c', `${at}: lost on screen: ${lost.join()}`);
    await pg.screenshot({ path: shots + `stage-phone-${width}x${height}.png` });
    await pg.context().close();
  }
  expect(problems.length === 0, [...new Set(problems)].slice(0, 25).join('\n'));
});

await check('back from a room the focus returns to the button that opened it, never to the page\'s body', async () => {
  const pg = await open({ width: 1366, height: 768 });
  for (const room of ['spacetime', 'quiz']) {
    await pg.focus(`#open-${room}`);
    await pg.keyboard.press('Enter');
    await pg.waitForSelector('.room, [data-room]', { timeout: 15000 });
    await pg.keyboard.press('Escape');
    await pg.waitForFunction(() => !document.querySelector('#app').classList.contains('in-room'));
    const focused = await pg.evaluate(() => document.activeElement && document.activeElement.id);
    expect(focused === `open-${room}`, `after Esc from ${room} the focus is on #${focused}`);
  }
  await pg.context().close();
});

const axeSource = await readFile(tools + '/node_modules/axe-core/axe.min.js', 'utf8');
await check('axe finds no violation on the main screen, in a lesson, in presenter mode, on a phone, and in every room, in English and Chinese', async () => {
  const problems = [];
  const audit = async (pg, where) => {
    await pg.evaluate(axeSource);
    const found = await pg.evaluate(async () => (await axe.run(document, { resultTypes: ['violations'] })).violations
      .map((v) => `${v.id} (${v.impact}) ×${v.nodes.length}: ${v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(', ')}`));
    problems.push(...found.map((f) => `${where}: ${f}`));
  };
  const ROOMS = ['batch', 'compare', 'pyflink', 'spacetime', 'explorer', 'program', 'quiz'];
  for (const lang of ['en', 'zh']) {
    const pg = await open({ width: 1366, height: 768 });
    if (lang === 'zh') await pg.click('#btn-lang');
    await audit(pg, `${lang} main screen`);
    await pg.selectOption('#sel-lesson', '1');
    await pg.waitForSelector('#lesson');
    for (let i = 0; i < 12 && !(await pg.$('#predict')); i++) await pg.keyboard.press('PageDown');
    await audit(pg, `${lang} a lesson's predict step`);
    await pg.keyboard.press('p');
    await pg.keyboard.press('PageDown');
    await pg.keyboard.press('PageDown');
    await audit(pg, `${lang} presenter mode, revealed`);
    await pg.keyboard.press('Escape');
    await pg.selectOption('#sel-lesson', 'none');
    for (const room of ROOMS) {
      await pg.click(`#open-${room}`);
      await pg.waitForFunction(() => document.querySelector('#app').classList.contains('in-room') && !document.querySelector('.piece-status, .room-loading'), null, { timeout: 15000 });
      await pg.waitForTimeout(300);
      await audit(pg, `${lang} room ${room}`);
      await pg.keyboard.press('Escape');
      await pg.waitForFunction(() => !document.querySelector('#app').classList.contains('in-room'));
    }
    await pg.context().close();
    const phone = await open({ width: 390, height: 844 }, { touch: true });
    if (lang === 'zh') await phone.click('#btn-lang');
    await audit(phone, `${lang} phone`);
    await phone.context().close();
  }
  expect(problems.length === 0, problems.join('\n'));
});

await browser.close();
await srv.close();
finish(errors);
