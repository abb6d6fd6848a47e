import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's chromium (never a browser a test tool downloads), headless, with the flags that keep it
 * off the network this machine does not have: without them it tries Google's hosts at every start.
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A new browser (playwright gives each launch a fresh, empty profile). */
export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
