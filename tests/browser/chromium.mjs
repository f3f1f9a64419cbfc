// The headless Chromium the browser tests run in: the one `cargo xtask test` installs (CHROMIUM names another),
// without the background work (networking, component updates, sync, QUIC) that would put requests beside the
// ones a test counts.
import { chromium } from "playwright-core";

/** The browser every page test opens its pages in. */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}
