// Starts the app after the browser has painted the server's HTML (see
// docs/decisions/017-server-rendering.md). The app's script is already being downloaded and
// compiled (it is a modulepreload in the page); running it first would hold back the first paint
// by the time it takes to evaluate, a few hundred milliseconds on a slow phone.
const entry = document.querySelector('link[rel="modulepreload"][data-entry]');
let started = false;
function start() {
  if (started || !entry) return;
  started = true;
  import(entry.href);
}
// After the next frame is painted; a tab in the background paints no frame, so start anyway.
window.requestAnimationFrame(() => setTimeout(start, 0));
setTimeout(start, 300);

// Until then the buttons on screen have no handlers: a tap on Pledge Now would do nothing, and
// the donor would not know to tap again. Such taps (on controls marked data-replay-click) are
// held here and replayed by the app once it is interactive (client/app.tsx).
const held = [];
function hold(event) {
  const target = event.target instanceof window.Element && event.target.closest('[data-replay-click]');
  if (!target) return;
  event.preventDefault();
  event.stopPropagation();
  if (!held.includes(target)) held.push(target);
}
document.addEventListener('click', hold, true);
window.replayHeldClicks = () => {
  document.removeEventListener('click', hold, true);
  for (const target of held.splice(0)) if (target.isConnected) target.click();
};
