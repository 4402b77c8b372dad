/**
 * Headless Chromium as every browser test here runs it: the system's /usr/bin/chromium (apt), software GL,
 * no sandbox, no background network traffic. `extraArgs` adds flags (e.g. a fake camera).
 */
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--use-gl=swiftshader', '--disable-background-networking'] as const;

export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs] });
}
