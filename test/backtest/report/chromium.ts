/**
 * Debian's headless Chromium for the browser tests: a static HTML file opened once (the DOM after
 * the page's scripts ran, and a screenshot), or a browser driven live through playwright-core
 * (which downloads no browser; it drives this one). CI installs the browser (.ci/run); elsewhere
 * the browser tests run when it is there.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';

export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));

/** `it` when Chromium is here or in CI (where its absence must fail), `it.skip` elsewhere. */
export const hasBrowser = CHROMIUM !== undefined || process.env['CI'] === 'true';

/** No sandbox (containers), no GPU, and nothing the browser would fetch on its own. */
const BROWSER_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A static page: scrollbars hidden for the screenshot, and up to 5 s of virtual time for its scripts. */
const FLAGS = [...BROWSER_FLAGS, '--hide-scrollbars', '--virtual-time-budget=5000'];

/** The browser's path, or an error saying how to install it. */
function installedChromium(): string {
  if (CHROMIUM === undefined) throw new Error('chromium is not installed (Debian package `chromium`); .ci/run installs it');
  return CHROMIUM;
}

/** What the browser made of a page. */
export interface BrowserView {
  readonly dom: string;
  readonly screenshot: Buffer;
  readonly screenshotPath: string;
}

/** Loads `html` from a file, dumps its DOM and takes a `width`×`height` screenshot. */
export function openInChromium(html: string, size: { width: number; height: number }): BrowserView {
  const chromium = installedChromium();
  const dir = mkdtempSync(join(tmpdir(), 'akira-report-'));
  const file = join(dir, 'report.html');
  writeFileSync(file, html);
  const run = (extra: string[]): string =>
    execFileSync(chromium, [...FLAGS, `--user-data-dir=${join(dir, 'profile')}`, ...extra, `file://${file}`], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'] });
  const dom = run(['--dump-dom']);
  const screenshotPath = join(dir, 'report.png');
  run([`--window-size=${size.width},${size.height}`, `--screenshot=${screenshotPath}`]);
  return { dom, screenshot: readFileSync(screenshotPath), screenshotPath };
}

/** The attributes of the element with `id` in a dumped DOM. */
export function attributesOf(dom: string, id: string): Record<string, string> {
  const tag = new RegExp(`<[a-z]+[^>]*\\sid="${id}"[^>]*>`).exec(dom)?.[0];
  if (tag === undefined) throw new Error(`no element #${id} in the page`);
  const attributes: Record<string, string> = {};
  for (const match of tag.matchAll(/([a-z-]+)="([^"]*)"/g)) attributes[match[1] as string] = (match[2] as string).replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  return attributes;
}

/**
 * Launches the browser driven live (a page that updates itself: waits, reads, screenshots at any
 * moment). Close it when done.
 *
 * Playwright's own signal handlers stay off: by default a SIGINT makes it close its browsers and
 * exit the process with 130, and the tests stop `paper` with exactly that signal, as Ctrl-C does.
 * The browser still dies with the test process (Playwright kills it on `exit`).
 * @throws Error when Chromium is not installed.
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = installedChromium();
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath, args: BROWSER_FLAGS, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
}
