// Set session.maintenance in a state dir's openclaw.json:  set-maintenance.mjs <state> '<json>'
import { readFileSync, writeFileSync } from "node:fs";
const [state, json] = process.argv.slice(2);
const path = `${state}/openclaw.json`;
const config = JSON.parse(readFileSync(path, "utf8"));
config.session = { ...(config.session ?? {}), maintenance: JSON.parse(json) };
writeFileSync(path, JSON.stringify(config, null, 2));
