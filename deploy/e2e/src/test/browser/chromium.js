'use strict';
// What the browser scripts share: required settings from the environment, Debian's Chromium started headless with the
// flags that keep it from reaching out (no first-run, sync, component updates or background networking), and the
// dashboard opened with a token.
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

function env(name, fallback) {
  const v = process.env[name] ?? fallback;
  if (v === undefined) throw new Error(`${name} is required`);
  return v;
}

function launch() {
  return chromium.launch({
    executablePath: env('CHROMIUM'),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

// The dashboard (DASHBOARD_URL) in a new page that sends the bearer token TOKEN with every request; fails unless it
// loads.
async function openDashboard(browser) {
  const context = await browser.newContext({ extraHTTPHeaders: { Authorization: `Bearer ${env('TOKEN')}` },
    viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const response = await page.goto(env('DASHBOARD_URL'));
  if (!response.ok()) throw new Error(`the page answered ${response.status()}`);
  return page;
}

// One panel's check, as every panel script makes it: the dashboard opened, `prepare(page)` (unmeasured), then
// `check(page)`, whose time is printed as one JSON line {"<name>ShownMs": ms}. Screenshots go to SCREENSHOTS:
// <name>.png, or failed-<name>.png when a check failed; then the script exits 1 with the failure's first line.
function checkPanel(name, check, prepare = async () => {}) {
  const shots = env('SCREENSHOTS');
  fs.mkdirSync(shots, { recursive: true });
  async function main() {
    const browser = await launch();
    try {
      const page = await openDashboard(browser);
      await prepare(page);
      const started = Date.now();
      try {
        await check(page);
      } catch (e) {
        await page.screenshot({ path: path.join(shots, `failed-${name}.png`), fullPage: true });
        throw e;
      }
      await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
      console.log(JSON.stringify({ [`${name}ShownMs`]: Date.now() - started }));
    } finally {
      await browser.close();
    }
  }
  main().catch((e) => {
    console.error(`dashboard-${name}: ${e.message.split('\n')[0]}`);
    process.exit(1);
  });
}

module.exports = { env, launch, checkPanel };
