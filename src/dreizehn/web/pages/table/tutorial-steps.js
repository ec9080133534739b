// @ts-check
// A game's tutorial (GET /api/learn/{game}; dreizehn/play/tutorial.py says the steps' form): which step is shown, when it
// ends, and which moves it lets the person make. Pure: no page, no words (tests/js/tutorial-steps.test.mjs).

/**
 * @typedef {{event: string, seat?: "me" | "other" | number, has?: string}} EventCondition an update that told such
 *   an event (by that seat, with that parameter not empty)
 */
/**
 * @typedef {{say: string, want?: string, free?: boolean, until?: "next" | "mine" | "end" | EventCondition}} Step a
 *   step: its words (a key of the game's catalogue), the move it wants, whether any move is accepted meanwhile, and
 *   what ends it
 */
/** @typedef {{game: string, seat: number, steps: Step[]}} Script a game's tutorial */
/** @typedef {{seat: number, action: string, events: {key: string, params: Record<string, any>}[]}} Told an update */

/**
 * Whether an event by seat `by` is by `who` ("me": the person at `seat`; "other"; a seat; anyone when none).
 * @param {EventCondition["seat"]} who
 * @param {number} by
 * @param {number} seat
 */
function byWhom(who, by, seat) {
  if (who === "me") return by === seat;
  if (who === "other") return by !== seat;
  return typeof who !== "number" || by === who;
}

/**
 * Whether an update ends a step: its wanted move made by the person, or its event told.
 * @param {Step} step
 * @param {Told} told
 * @param {number} seat the person's seat
 */
export function endsWith(step, told, seat) {
  if (step.want !== undefined) return told.seat === seat && told.action === step.want;
  const until = step.until;
  if (!until || typeof until !== "object") return false;
  return told.events.some((e) => e.key === until.event && byWhom(until.seat, e.params.seat ?? told.seat, seat)
    && (until.has === undefined || isSome(e.params[until.has])));
}

/** @param {unknown} value a parameter: set and not empty */
function isSome(value) {
  return Array.isArray(value) ? value.length > 0 : !!value;
}

/**
 * Whether the person may move while `step` is shown: a wanted move, any in a free step or the last.
 * @param {Step | undefined} step
 */
export function allowsMoves(step) {
  return !step || step.want !== undefined || !!step.free || step.until === "end";
}

/**
 * The moves the person may make now of those legal: the wanted one alone, all of them, or none.
 * @template {{text: string}} A
 * @param {Step | undefined} step
 * @param {A[]} legal
 * @returns {A[]}
 */
export function allowedOf(step, legal) {
  if (!step || step.free || step.until === "end") return legal;
  return step.want !== undefined ? legal.filter((a) => a.text === step.want) : [];
}

/**
 * The step after `index` that a state now ends: a step that waits for the person's turn ends when it is theirs.
 * @param {Step[]} steps
 * @param {number} index the step shown
 * @param {boolean} mine whether it is the person's turn
 */
export function settled(steps, index, mine) {
  let at = index;
  while (at < steps.length - 1 && steps[at].until === "mine" && mine) at += 1;
  return at;
}
