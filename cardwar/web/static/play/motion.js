// Motion on the table: a battle's cards travel from each seat's pile to its place
// on the table (Web Animations API; nothing with prefers-reduced-motion). The
// peace's cards are laid letter by letter in CSS (play.css, .tplay--enter); the
// pick-up of the pot is in pot.js. DOM only.

const reduceMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");

/** ms a card takes from its pile to the table */
export const DEAL_MS = 320;

/**
 * Deal the cards just drawn (`.tplay--enter`): each seat's card turned up comes
 * from its pile. Cards already there are left alone.
 */
export function dealIn() {
  if (reduceMotion && reduceMotion.matches) return;
  document.querySelectorAll(".tseat").forEach((seat) => {
    const card = seat.querySelector(".tplay--enter > .tplay__row:first-child > .pcard");
    const pile = seat.querySelector(".pile");
    if (!card || !pile || typeof card.animate !== "function") return;
    const from = pile.getBoundingClientRect();
    const to = card.getBoundingClientRect();
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    card.animate([
      { transform: `translate(${dx}px, ${dy}px) scale(.7) rotateY(80deg)`, opacity: 0.4 },
      { transform: "none", opacity: 1 },
    ], { duration: DEAL_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
  });
}
