// `npm run icon`: renders media/icon.svg to media/icon.png (256 × 256, transparent), the icon the
// manifest names, with the Debian chromium the tests use, so the PNG is reproducible from the SVG
// without an image library. Run it after changing the SVG and commit both. An asset tool, so it
// lives in scripts/; the browser's path comes from the host tests' harness (TT_CHROMIUM_PATH).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumPath, repoRoot } from '../test/extension/host/common.mjs';

const SIZE = 256;
const source = join(repoRoot, 'media', 'icon.svg');
const target = join(repoRoot, 'media', 'icon.png');

const browser = await chromium.launch({
  executablePath: chromiumPath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE } });
  const svg = readFileSync(source).toString('base64');
  await page.setContent(
    `<html><body style="margin:0;background:transparent"><img src="data:image/svg+xml;base64,${svg}" width="${SIZE}" height="${SIZE}" style="display:block"></body></html>`,
  );
  await page.locator('img').evaluate((image) => image.decode());
  const png = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: SIZE, height: SIZE } });
  writeFileSync(target, png);
  console.log(`media/icon.png: ${SIZE} × ${SIZE}, ${png.length} bytes, from media/icon.svg`);
} finally {
  await browser.close();
}
