// @ts-check
// The panel with the invitation links of a new table (its creator's page and the table page), each with a copy
// button.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";

/**
 * @typedef {{me?: number | null, invitations: {seat: number, url: string}[], spectator?: string | null}} Invites
 *   the links of a new table, as its creator keeps them
 */

/**
 * @param {Invites} invites
 * @param {{joined: boolean, name?: string | null}[] | null} seats the seats now (a seat taken needs no invitation;
 *   a friend invited by user name is named by it), or none yet
 */
export function invitePanel(invites, seats) {
  const rows = invites.invitations.filter((inv) => inv.seat !== invites.me && (!seats || !seats[inv.seat].joined));
  const nameless = rows.map((inv) => inv.seat).filter((seat) => !nameOf(seat, seats));
  return h("section.invites", { "aria-label": t("web.invite") }, rows.length ? h("h2", {}, t("web.invite")) : null,
    rows.map((inv) => copyRow(inviteLabel(inv.seat, seats, nameless), inv.url, `invite-${inv.seat}`)),
    invites.spectator ? copyRow(t("web.spectator_link"), invites.spectator, "spectator-link") : null);
}

/**
 * The name a seat is kept for (a friend invited by user name), or none.
 * @param {number} seat
 * @param {{name?: string | null}[] | null} seats
 */
function nameOf(seat, seats) {
  return seats && seats[seat] ? seats[seat].name || null : null;
}

/**
 * An invitation's label: for the person a seat is kept for, by their name (a friend invited by user name); for the
 * seats nobody is named for yet, "Invitation" where there is one, else "First invitation", "Second invitation", …
 * in the order of the seats, as the table's sentences say "the first invited player", "the second invited player".
 * @param {number} seat
 * @param {{name?: string | null}[] | null} seats
 * @param {number[]} nameless the seats of the invitations shown that nobody is named for, in order
 */
export function inviteLabel(seat, seats, nameless) {
  const name = nameOf(seat, seats);
  if (name) return t("web.invite_for", { name });
  if (nameless.length < 2) return t("web.invitation");
  return t("web.invitation_nth", { nth: t(`web.nth.${nameless.indexOf(seat) + 1}`) });
}

/**
 * A link to copy: its label, the link in a read-only field, and a copy button.
 * @param {string} label
 * @param {string} url
 * @param {string} id the field's id
 */
export function copyRow(label, url, id) {
  const input = /** @type {HTMLInputElement} */ (h("input.copy-text", { id, readonly: true, value: url }));
  const button = h("button.small-button", { type: "button", onclick: async () => {
    input.select();
    try { await navigator.clipboard.writeText(url); button.textContent = t("web.copied"); } catch { button.textContent = t("web.copy_select"); }
  } }, t("web.copy"));
  return h("div.copy-row", {}, h("label", { for: id }, label), h("div.copy-line", {}, input, button));
}
