'use strict';
// What the browser scripts share: required settings from the environment, and Debian's Chromium started headless
// with the flags that keep it from reaching out (no first-run, sync, component updates or background networking).
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

module.exports = { env, launch };
