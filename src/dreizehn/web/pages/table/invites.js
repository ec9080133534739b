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
  return h("section.invites", { "aria-label": t("web.invite") }, rows.length ? h("h2", {}, t("web.invite")) : null,
    rows.map((inv) => copyRow(inviteLabel(inv.seat, seats), inv.url, `invite-${inv.seat}`)),
    invites.spectator ? copyRow(t("web.spectator_link"), invites.spectator, "spectator-link") : null);
}

/**
 * An invitation's label: for the person a seat is kept for, by their name (a friend invited by user name); for a
 * seat nobody is named for yet, by its place at the table, the only thing that tells it apart.
 * @param {number} seat
 * @param {{name?: string | null}[] | null} seats
 */
export function inviteLabel(seat, seats) {
  const name = seats && seats[seat] ? seats[seat].name : null;
  return name ? t("web.invite_for", { name }) : t("web.seat_link", { n: seat + 1 });
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
