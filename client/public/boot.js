// Starts the app after the browser has painted the server's HTML (see
// docs/decisions/017-server-rendering.md). The app's scripts are already being downloaded and
// compiled (they are modulepreloads in the page); running them first would hold back the first
// paint by the time it takes to evaluate them.
// One chunk per task: a static import graph is evaluated in one task, and React DOM's module code
// alone is ~15 ms of CPU here (60 ms on Lighthouse's 4x slower phone), so the entry's
// dependencies (React, in the order the page lists them) are evaluated first, each in a task of
// its own, then the entry (the app's modules).
const entry = document.querySelector('link[rel="modulepreload"][data-entry]');
const deps = [...document.querySelectorAll('link[rel="modulepreload"]:not([data-entry])')];
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
let started = false;
async function start() {
  if (started || !entry) return;
  started = true;
  for (const dep of deps) {
    await import(dep.href);
    await nextTask();
  }
  await import(entry.href);
}
// After the next frame is painted; a tab in the background paints no frame, so start anyway.
window.requestAnimationFrame(() => setTimeout(start, 0));
setTimeout(start, 300);

// Until then the buttons on screen have no handlers: a tap on Pledge Now (or, for the admin, on
// Add update) would do nothing, and the person would not know to tap again. A tap on a button is
// held here and the app replays the last one once it is interactive (client/app.tsx). Links work
// without the app and are left alone.
let held;
function hold(event) {
  const target = event.target instanceof window.Element && event.target.closest('button');
  if (!target) return;
  event.preventDefault();
  event.stopPropagation();
  held = target;
}
document.addEventListener('click', hold, true);
window.replayHeldClicks = () => {
  document.removeEventListener('click', hold, true);
  if (held?.isConnected) held.click();
  held = undefined;
};
