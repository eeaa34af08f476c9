// Starts the app after the browser has painted the server's HTML (see
// docs/decisions/017-server-rendering.md). The app's scripts are not even requested before then:
// Lighthouse's simulation of a slow phone counts every request that ended before the first paint
// as something the paint waited for, so scripts that happened to arrive first (a race on a fast
// connection) made LCP come out 0.5-0.9 s later. The page lists them (#app-scripts, written by
// paintFirst in vite.config.ts): the entry's dependencies in order, then the entry.
// One chunk per task: a static import graph is evaluated in one task, and React DOM's module code
// alone is ~15 ms of CPU here (60 ms on Lighthouse's 4x slower phone), so the dependencies
// (React) are evaluated first, each in a task of its own, then the entry (the app's modules).
const list = document.getElementById('app-scripts');
const { deps = [], entry } = list ? JSON.parse(list.textContent) : {};
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
let started = false;
async function start() {
  if (started || !entry) return;
  started = true;
  // All of them downloaded (and compiled) at once, not one after the other as each import would.
  for (const href of [...deps, entry]) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
  for (const dep of deps) {
    await import(dep);
    await nextTask();
  }
  await import(entry);
}
// Once the browser reports the first paint: a task after the next frame was measured to come
// up to 10 ms before the paint's reported time (which follows the main thread's drawing of it).
// Start at once where there is nothing to paint first (the pages not rendered on the server:
// admin, thank-you) and in a tab in the background, which paints nothing; and after a second
// whatever happens, should no paint be reported.
const afterPaint = () => setTimeout(start, 0);
if (!document.getElementById('root')?.firstElementChild || document.visibilityState === 'hidden')
  start();
else if (window.PerformanceObserver?.supportedEntryTypes?.includes('paint')) {
  new window.PerformanceObserver((_entries, observer) => {
    observer.disconnect();
    afterPaint();
  }).observe({ type: 'paint', buffered: true });
} else window.requestAnimationFrame(() => window.requestAnimationFrame(afterPaint));
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') start();
});
setTimeout(start, 1000);

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

// React DOM's own property on an element it has hydrated (React 17-19). "Interactive" is when the
// app's root has hydrated; parts inside a Suspense boundary (the admin's header controls) hydrate
// a frame or two later, and a click on them before that is dropped: measured, a held tap on Admin
// controls was lost every time. So the replay waits for the button itself, a frame at a time, and
// clicks anyway after two seconds.
const isHydrated = (el) => Object.keys(el).some((key) => key.startsWith('__reactProps$'));
window.replayHeldClicks = () => {
  document.removeEventListener('click', hold, true);
  const button = held;
  held = undefined;
  if (!button) return;
  const until = window.performance.now() + 2000;
  const replay = () => {
    if (!button.isConnected) return;
    if (isHydrated(button) || window.performance.now() > until) button.click();
    else window.requestAnimationFrame(replay);
  };
  replay();
};
