// @ts-check
// Cards that move, seen moving: when the board is drawn again, a card that lies elsewhere than before (played from
// the hand onto a row, a row taken into a hand or among the known cards, a hand sorted) glides from where it was to
// where it is now, and a card that left the table (taken by another player, whose hand is hidden) fades out where it
// lay. Nothing moves where the system asks for reduced motion.

/** How long a card takes to move (ms). */
export const MOVE_MS = 380;

/**
 * Where each card of `root` lies: per card text, the rectangles of its drawings in document order.
 * @param {ParentNode} root
 * @returns {Map<string, DOMRect[]>}
 */
export function cardPlaces(root) {
  /** @type {Map<string, DOMRect[]>} */
  const places = new Map();
  for (const el of root.querySelectorAll("[data-card]")) {
    const card = /** @type {HTMLElement} */ (el).dataset.card || "";
    const list = places.get(card) || [];
    list.push(el.getBoundingClientRect());
    places.set(card, list);
  }
  return places;
}

/** Whether the system asks for reduced motion, or the person did in their settings (account.js: the page's
 * `data-motion="reduce"`). */
export function reducedMotion() {
  if (typeof document !== "undefined" && document.documentElement.dataset.motion === "reduce") return true;
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * The moves from `before` to `root`'s cards now: each card drawn now that was drawn before (the same text, taken in
 * document order) at another place, and each place left with no card (the text drawn fewer times now).
 * @param {Map<string, DOMRect[]>} before
 * @param {ParentNode} root
 * @returns {{moved: {el: HTMLElement, dx: number, dy: number}[], left: {card: string, rect: DOMRect}[]}}
 */
export function movesSince(before, root) {
  /** @type {Map<string, number>} */
  const seen = new Map();
  /** @type {{el: HTMLElement, dx: number, dy: number}[]} */
  const moved = [];
  const nodes = [...root.querySelectorAll("[data-card]")];
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const node of nodes) {
    const card = /** @type {HTMLElement} */ (node).dataset.card || "";
    counts.set(card, (counts.get(card) || 0) + 1);
  }
  for (const node of nodes) {
    const el = /** @type {HTMLElement} */ (node);
    const card = el.dataset.card || "";
    const n = seen.get(card) || 0;
    seen.set(card, n + 1);
    const was = (before.get(card) || [])[n];
    // A card of which more copies lie now than before (another player's card like one in the hand) came from
    // elsewhere: which copy went where is not known, so none of them glides.
    if (!was || counts.get(card) !== (before.get(card) || []).length) continue;
    const now = el.getBoundingClientRect();
    const dx = was.left - now.left;
    const dy = was.top - now.top;
    if (Math.abs(dx) > 2 || Math.abs(dy) > 2) moved.push({ el, dx, dy });
  }
  const left = [];
  for (const [card, rects] of before) {
    for (const rect of rects.slice(seen.get(card) || 0)) left.push({ card, rect });
  }
  return { moved, left };
}

/**
 * Play the moves: each moved card glides from its old place (the card that arrives by its own animation, the last
 * played, glides instead); each card that left fades out where it lay, drawn by a copy of `template`'s look.
 * @param {{moved: {el: HTMLElement, dx: number, dy: number}[], left: {card: string, rect: DOMRect}[]}} moves
 * @param {Map<string, HTMLElement>} looks each card that left, as it was drawn (cloned to fade out)
 */
export function playMoves(moves, looks) {
  if (reducedMotion()) return;
  for (const { el, dx, dy } of moves.moved) {
    if (typeof el.animate !== "function") continue;
    el.classList.remove("arriving");
    el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
      { duration: MOVE_MS, easing: "cubic-bezier(.2, .7, .3, 1)" });
  }
  for (const { card, rect } of moves.left) {
    const look = looks.get(card);
    if (!look || typeof look.animate !== "function") continue;
    const ghost = /** @type {HTMLElement} */ (look.cloneNode(true));
    ghost.removeAttribute("id");
    ghost.setAttribute("aria-hidden", "true");
    ghost.classList.add("leaving");
    Object.assign(ghost.style, { position: "fixed", left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`,
      height: `${rect.height}px`, margin: "0", pointerEvents: "none", zIndex: "5" });
    document.body.append(ghost);
    const animation = ghost.animate([{ opacity: 1, transform: "none" }, { opacity: 0, transform: "translateY(-1.5rem) scale(.8)" }],
      { duration: MOVE_MS, easing: "ease-in" });
    animation.onfinish = () => ghost.remove();
    animation.oncancel = () => ghost.remove();
  }
}

/**
 * Draw `root` again by `draw` (which says whether it drew), the cards that moved seen moving. `draw` is given
 * `measure`, to call only when it is about to draw (the old board still in place): a board drawn for nothing new
 * is not measured (each measure lays the page out).
 * @param {HTMLElement} root
 * @param {(measure: () => void) => boolean} draw
 */
export function withMotion(root, draw) {
  /** @type {Map<string, DOMRect[]> | null} */
  let before = null;
  /** @type {Map<string, HTMLElement>} */
  const looks = new Map();
  const measure = () => {
    if (reducedMotion() || !root.isConnected) return;
    before = cardPlaces(root);
    for (const el of root.querySelectorAll("[data-card]")) looks.set(/** @type {HTMLElement} */ (el).dataset.card || "", /** @type {HTMLElement} */ (el));
  };
  if (draw(measure) && before) playMoves(movesSince(before, root), looks);
}
