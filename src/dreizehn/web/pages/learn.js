// @ts-check
// /learn/{game}: a new table on the game's tutorial deal (POST /api/learn/{game}), whose seat's page,
// /learn/{game}/{token}, is the table page as a tutorial (pages/table/tutorial.js).
import { post } from "../api.js";
import { t } from "../i18n.js";

/**
 * @param {HTMLElement} root where the page goes (it says "…" until the table is made)
 * @param {{setTitle: (text: string) => void, again: () => void}} app
 * @param {string} game the game's id
 */
export async function learnPage(root, app, game) {
  app.setTitle(t("web.tutorial.title", { game: t(`${game}.title`) }));
  const name = localStorage.getItem("dreizehn.name") || t("web.tutorial.name");
  const made = await post(`/api/learn/${game}`, { name });
  history.replaceState(null, "", `/learn/${game}/${made.token}`);
  app.again();
  return null;
}
