'use strict';
// Opens the dashboard in Chromium, runs one lifecycle of UPSTREAM through execution-service's API, and checks, without
// reloading, that the run appears, turns to halted, and that DOWNSTREAM_STEP's queue count rises, each within
// LIMIT_MS of the API's answer. Prints one JSON line of timings; exits 1 on the first check that fails.
//
// Environment: DASHBOARD_URL, EXECUTION_URL, TOKEN (bearer; viewer for the page, operator for the calls), UPSTREAM
// (parent id), UPSTREAM_STEP, DOWNSTREAM_STEP, CHROMIUM (executable), SCREENSHOTS (folder), LIMIT_MS (2000).
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const env = (name, fallback) => {
  const v = process.env[name] ?? fallback;
  if (v === undefined) throw new Error(`${name} is required`);
  return v;
};
const LIMIT = Number(env('LIMIT_MS', '2000'));
const token = env('TOKEN');
const shots = env('SCREENSHOTS');
fs.mkdirSync(shots, { recursive: true });

async function call(method, url, body) {
  const r = await fetch(url, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${url} answered ${r.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

async function timed(page, what, check) {
  const start = Date.now();
  try {
    await check(LIMIT);
  } catch (e) {
    await page.screenshot({ path: path.join(shots, `failed-${what}.png`), fullPage: true });
    throw new Error(`${what}: not shown within ${LIMIT} ms (${e.message.split('\n')[0]})`);
  }
  const ms = Date.now() - start;
  await page.screenshot({ path: path.join(shots, `${what}.png`), fullPage: true });
  return ms;
}

async function main() {
  const browser = await chromium.launch({
    executablePath: env('CHROMIUM'),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  try {
    const context = await browser.newContext({ extraHTTPHeaders: { Authorization: `Bearer ${token}` },
      viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    let navigations = 0;
    page.on('framenavigated', (f) => { if (f === page.mainFrame()) navigations++; });
    const dashboard = env('DASHBOARD_URL');
    const response = await page.goto(dashboard);
    if (!response.ok()) throw new Error(`the page answered ${response.status()}`);
    await page.waitForSelector('#status[data-version]', { timeout: 30000 });
    await page.screenshot({ path: path.join(shots, 'opened.png'), fullPage: true });

    const execution = env('EXECUTION_URL');
    const upstream = env('UPSTREAM');
    const downstreamStep = env('DOWNSTREAM_STEP');
    const queued = async () => page.evaluate((id) => {
      const row = document.querySelector(`#queues tr[data-queue="${id}"]`);
      return row ? Number(row.dataset.queued) : 0;
    }, downstreamStep);
    const queuedBefore = await queued();

    const run = await call('POST', `${execution}/jobs/${upstream}/init`, { maxBatch: 1 });
    const ie = run.instanceExecId;
    const appearMs = await timed(page, 'run-appears', (limit) =>
      page.waitForSelector(`#running tr[data-run="${ie}"]`, { timeout: limit }));

    await call('POST', `${execution}/steps/${env('UPSTREAM_STEP')}/init`);
    await call('POST', `${execution}/steps/${env('UPSTREAM_STEP')}/halt`);
    await call('POST', `${execution}/jobs/${upstream}/halt`, { batchMarking: '2024-10-01' });
    const haltedMs = await timed(page, 'run-finished', (limit) =>
      page.waitForSelector(`#finished tr[data-run="${ie}"][data-state="halted"]`, { timeout: limit }));
    const queueMs = await timed(page, 'queue-rises', (limit) => page.waitForFunction(([id, before]) => {
      const row = document.querySelector(`#queues tr[data-queue="${id}"]`);
      return row && Number(row.dataset.queued) > before;
    }, [downstreamStep, queuedBefore], { timeout: limit }));
    // The flow feed shows the fan-out too, and the page was never reloaded.
    await page.waitForSelector('#flow li[data-flow="BatchEnqueued"]', { timeout: LIMIT });
    if (navigations !== 1) throw new Error(`the page navigated ${navigations} times`);
    console.log(JSON.stringify({ instanceExecId: ie, appearMs, haltedMs, queueMs, queuedBefore, queuedAfter: await queued() }));
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.error(`dashboard-check: ${e.message}`);
  process.exit(1);
});
