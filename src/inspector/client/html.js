// htm bound to Preact: markup written as tagged templates, no build step.
import htm from "htm";
import { h } from "preact";

export const html = htm.bind(h);
