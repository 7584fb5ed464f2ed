/** Headless Chromium (Debian's `chromium` package) through puppeteer-core, for the pages' browser test and screenshots. */
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'puppeteer-core';

const CANDIDATES = [process.env.REPOHOST_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** The browser's executable, or undefined when none is installed. */
export function chromiumPath(): string | undefined {
  return CANDIDATES.find((path): path is string => !!path && existsSync(path));
}

export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('no Chromium: apt-get install -y chromium (or set REPOHOST_CHROMIUM)');
  const { launch } = await import('puppeteer-core');
  // As root (CI, the dev machines) Chromium runs only without its sandbox.
  return launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
}

/** What a page reported while loading: console errors (Chromium logs each CSP violation as one), uncaught errors, failed requests. */
export interface PageProblems {
  messages: string[];
}

export function watchProblems(page: Page): PageProblems {
  const problems: PageProblems = { messages: [] };
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warn') problems.messages.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.messages.push(`page error: ${String(error)}`));
  page.on('requestfailed', (request) => problems.messages.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.messages.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return problems;
}
