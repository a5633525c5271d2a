// A player's finished games from GET /players/{player_id}/games/export (JSON lines, newest first),
// each line typed as the OpenAPI document names it (PlayedGame), read as it comes.
// Usage: node dist/games.js <api base url> <player id> [max]
import type { paths } from "./schema";

type Export = paths["/players/{player_id}/games/export"]["get"];
export type PlayedGame = Export["responses"][200]["content"]["application/x-ndjson"];

declare const process: { argv: string[]; exitCode?: number };

export async function* exportGames(
  api: string,
  playerId: string,
  max?: number,
): AsyncGenerator<PlayedGame> {
  const query = max === undefined ? "" : `?max=${max}`;
  const answer = await fetch(`${api}/players/${encodeURIComponent(playerId)}/games/export${query}`);
  if (!answer.ok || answer.body === null) {
    throw new Error(`export: HTTP ${answer.status} ${await answer.text()}`);
  }
  const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
  let held = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (value !== undefined) held += value;
      const lines = held.split("\n");
      held = done ? "" : (lines.pop() ?? "");
      for (const line of lines) if (line) yield JSON.parse(line) as PlayedGame;
      if (done) return;
    }
  } finally {
    // a caller that stops early (a break, a throw) lets the download go: the connection closes
    await reader.cancel().catch(() => undefined);
  }
}

async function main(): Promise<void> {
  const [api, playerId, max] = process.argv.slice(2);
  const tables: string[] = [];
  for await (const game of exportGames(api, playerId, max === undefined ? undefined : Number(max))) {
    tables.push(game.table_id);
  }
  console.log(JSON.stringify({ games: tables.length, tables }));
}

if (process.argv[1]?.endsWith("games.js")) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
