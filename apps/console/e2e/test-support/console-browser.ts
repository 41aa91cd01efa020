import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium (apt-get install chromium), which playwright-core drives headless. */
export const chromiumPath = ((): string | undefined => {
  try {
    return (
      execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim() || undefined
    );
  } catch {
    return undefined;
  }
})();

/** A describe block that runs in Chromium, or is reported skipped with why. */
export const describeInBrowser = chromiumPath
  ? describe
  : (name: string, body: () => void) =>
      describe.skip(`${name} (skipped: no chromium on PATH; apt-get install chromium)`, body);

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    // Root in a container has no user namespaces for Chromium's sandbox.
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });

/** With HAWSER_UPDATE_SCREENSHOTS=1 the tests write the README's screenshots (docs/console). */
const SCREENSHOTS =
  process.env['HAWSER_UPDATE_SCREENSHOTS'] === '1'
    ? path.resolve(import.meta.dirname ?? '.', '../../../../docs/console')
    : undefined;

export const screenshot = async (page: Page, name: string): Promise<void> => {
  if (!SCREENSHOTS) return;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({
    path: path.join(SCREENSHOTS, `${name}.png`),
    fullPage: true,
    // Export paths name the test's temporary data directory: not for the README.
    mask: [page.getByRole('region', { name: 'Export locations' }).locator('code')],
  });
};

/** Opens the console and signs in with a noauth token, as a user types it. */
export const signIn = async (page: Page, baseUrl: string, token: string): Promise<void> => {
  await page.goto(`${baseUrl}/ui/`);
  await page.getByLabel(/Token/).fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
};

/**
 * Marks the document; the mark is gone after a reload, so a test that finds it at the end
 * saw every change arrive without reloading. (Browser-side code is given as text: these
 * sources are type-checked without the DOM's types.)
 */
export const markDocument = (page: Page) => page.evaluate('window.consoleMark = true');
export const documentStillMarked = (page: Page) =>
  page.evaluate('window.consoleMark === true') as Promise<boolean>;

/** Records every value a progress bar (by its label) shows, as the page updates it. */
export const recordProgress = (page: Page, label = 'Share progress') =>
  page.evaluate(`(() => {
    const seen = (window.progressSeen = []);
    const read = () => {
      const bar = document.querySelector('progress[aria-label=${JSON.stringify(label)}]');
      if (bar && seen[seen.length - 1] !== bar.value) seen.push(bar.value);
    };
    read();
    new MutationObserver(read).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  })()`);
export const progressSeen = (page: Page) =>
  page.evaluate('window.progressSeen') as Promise<number[]>;
