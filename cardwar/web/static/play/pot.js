// The pot's pick-up: a moment after a battle the cards on the table slide onto
// the winner's pile (or just fade, with reduced motion), then clear. DOM and
// timers only; drawing the table again (render.js) starts from still cards.

/** @typedef {import("./state.js").State} State */

const reduceMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");
/** @type {number | undefined} */
let slideTimer;

/** @returns {HTMLElement[]} */
function areas(/** @type {string} */ selector) {
  return Array.from(document.querySelectorAll(selector));
}

/**
 * Slide the last battle's cards to the winner's pile (nothing when nobody took
 * the pot, or on the game's last battle: it stays for the end screen).
 * @param {State} state
 * @param {number} [after]  ms before the slide starts (a peace stays longer)
 * @param {(battle: number, still: boolean) => void} [taken]  told as the slide starts,
 *   so that the table drawn again afterwards leaves the cards picked up
 */
export function slidePot(state, after = 1600, taken = () => {}) {
  window.clearTimeout(slideTimer);
  const last = state.last;
  if (!last || last.winner === null || last.winner === undefined) return;
  if (state.game.status === "over" || last.outcome) return;
  const winner = last.winner;
  slideTimer = window.setTimeout(() => {
    // the pile as drawn now (the table may have been drawn again since)
    const target = document.querySelector('.tseat[data-seat="' + winner + '"] .pile');
    if (!target) return;
    const still = Boolean(reduceMotion && reduceMotion.matches);
    taken(last.battle, still);
    const t = target.getBoundingClientRect();
    areas(".tplay").forEach((area) => {
      const r = area.getBoundingClientRect();
      const dx = t.left + t.width / 2 - (r.left + r.width / 2);
      const dy = t.top + t.height / 2 - (r.top + r.height / 2);
      if (still) {
        area.classList.add("tplay--taken-still");
      } else {
        area.style.transform = "translate(" + dx + "px," + dy + "px) scale(.4)";
        area.classList.add("tplay--taken");
      }
    });
    if (still) return;
    // once the cards have reached the pile, nothing is left over it
    slideTimer = window.setTimeout(() => {
      areas(".tplay--taken").forEach((area) => {
        area.textContent = "";
        area.classList.remove("tplay--taken");
        area.classList.add("tplay--cleared");
        area.style.transform = "";
      });
    }, 750);
  }, after);
}

/** Stop any pick-up and put the cards back in place (the game is over). */
export function settlePot() {
  window.clearTimeout(slideTimer);
  areas(".tplay").forEach((area) => {
    area.style.transform = "";
    area.classList.remove("tplay--taken", "tplay--taken-still", "tplay--cleared");
  });
}
