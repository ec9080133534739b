// A page for the tests of the modules that build elements: jsdom's window, its globals set as a browser has them
// (document, Node, HTMLElement, localStorage, location, navigator), before the module under test is imported.
import { JSDOM } from "jsdom";

/**
 * Make a page at `url` the global one.
 * @param {string} [url]
 */
export function openPage(url = "http://127.0.0.1/") {
  const dom = new JSDOM("<!doctype html><html><body></body></html>", { url });
  const { window } = dom;
  for (const name of ["document", "Node", "HTMLElement", "HTMLInputElement", "HTMLSelectElement", "localStorage", "location"]) {
    Object.defineProperty(globalThis, name, { value: window[name], configurable: true, writable: true });
  }
  Object.defineProperty(globalThis, "navigator", { value: window.navigator, configurable: true, writable: true });
  return window;
}
